// libfabric fi_pingpong and fabtests fi_rdm_pingpong: rows after the "bytes" header; sizes and
// counts carry k/m/g suffixes (powers of 1024), usec/xfer is one-way.
#include "calibrate/parse_util.hpp"

namespace pdsim {
namespace {

class FabtestsImporter final : public MeasurementImporter {
 public:
  // fi_pingpong rows have "#sent #ack", fi_rdm_pingpong rows "iters".
  FabtestsImporter(std::string tool, bool sent_ack) : tool_(std::move(tool)), sent_ack_(sent_ack) {}

  Json parse(const std::string& text, const std::string& file) const override {
    using namespace parse;
    Json out = envelope("pingpong", tool_, file);
    const size_t cols = sent_ack_ ? 8 : 7;
    const std::string want =
        sent_ack_
            ? "expected an fi_pingpong row: bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec"
            : "expected an fi_rdm_pingpong row: bytes iters total time MB/sec usec/xfer Mxfers/sec";
    bool in_table = false;
    const auto lines = lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view line = trim(lines[i]);
      auto t = tokens_of(line);
      if (!t.empty() && t[0] == "bytes") {
        in_table = true;
        continue;
      }
      if (!in_table || line.empty()) continue;
      if (t.size() != cols)
        fail_line(file, i + 1, want + ", got " + std::to_string(t.size()) + " columns");
      size_t k = sent_ack_ ? 1 : 0;  // column shift after "bytes"
      auto bytes = to_size(t[0]), iters = to_size(t[1]), total = to_size(t[2 + k]);
      std::string_view time_tok = t[3 + k];
      if (!time_tok.empty() && time_tok.back() == 's') time_tok.remove_suffix(1);
      auto time_s = to_number(time_tok), mbps = to_number(t[4 + k]), usec = to_number(t[5 + k]);
      auto mxfers = to_number(t[6 + k]);
      if (!bytes || !iters || !total || !time_s || !mbps || !usec || !mxfers)
        fail_line(file, i + 1, want + " (sizes may end in k/m/g, time in s)");
      measured(time_s, "time (s)", file, i + 1);
      measured(mbps, "MB/sec", file, i + 1);
      measured(mxfers, "Mxfers/sec", file, i + 1);
      if (measured(usec, "usec/xfer", file, i + 1) == 0)
        fail_line(file, i + 1, "expected a positive usec/xfer (a round trip takes time), got 0");
      if (sent_ack_ && !to_size(t[2])) fail_line(file, i + 1, want);
      out["results"].push_back({{"bytes", *bytes},
                                {"iterations", *iters},
                                {"total_bytes", *total},
                                {"time_s", *time_s},
                                {"MBps", *mbps},
                                {"latency_us", *usec},
                                {"stat", "mean"},
                                {"mxfers_per_s", *mxfers}});
    }
    if (out["results"].empty())
      throw InputError(file, "", "expected a '" + tool_ + "' table: a 'bytes ...' header and rows");
    return out;
  }

 private:
  std::string tool_;
  bool sent_ack_;
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "fi_pingpong", "libfabric fi_pingpong stdout",
               [] { return std::make_unique<FabtestsImporter>("fi_pingpong", true); })
PDSIM_REGISTER(MeasurementImporterRegistry, "fi_rdm_pingpong", "fabtests fi_rdm_pingpong stdout",
               [] { return std::make_unique<FabtestsImporter>("fi_rdm_pingpong", false); })

}  // namespace pdsim

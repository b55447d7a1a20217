// perftest (ib_write_lat, ib_write_bw, ib_send_lat, ...): the table after the "#bytes" header.
// Latency tables become "pingpong" rows (one-way µs, typical = median-like), bandwidth tables
// "bandwidth" rows (MiB/s or Gb/s converted to GB/s = 1e9 B/s).
#include "calibrate/parse_util.hpp"

namespace pdsim {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

class PerftestImporter final : public MeasurementImporter {
 public:
  Json parse(const std::string& text, const std::string& file) const override {
    using namespace parse;
    enum { kNone, kLat, kBw } table = kNone;
    double bw_unit_GBps = kMiB / 1e9;  // MiB/s → GB/s
    Json out;
    const auto lines = lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view line = trim(lines[i]);
      if (starts_with(line, "#bytes")) {
        if (line.find("t_min") != std::string_view::npos ||
            line.find("t_avg") != std::string_view::npos) {
          table = kLat;
          out = envelope("pingpong", "perftest", file);
        } else if (line.find("BW average") != std::string_view::npos) {
          table = kBw;
          out = envelope("bandwidth", "perftest", file);
          if (line.find("[Gb/sec]") != std::string_view::npos) bw_unit_GBps = 1.0 / 8.0;
        } else {
          fail_line(file, i + 1,
                    "expected a perftest latency (t_min ...) or bandwidth (BW average ...) header");
        }
        continue;
      }
      if (table == kNone || line.empty()) continue;
      if (line.front() == '-') {  // the dashed rule that closes the table
        table = kNone;
        continue;
      }
      auto t = tokens_of(line);
      std::vector<double> v;
      for (auto tok : t) {
        auto x = to_number(tok);
        if (!x) break;
        v.push_back(*x);
      }
      const bool lat = table == kLat;
      if (lat && (v.size() != t.size() || v.size() < 7))
        fail_line(file, i + 1,
                  "expected a perftest latency row: #bytes #iterations t_min t_max t_typical "
                  "t_avg t_stdev [99% [99.9%]] (numbers, usec)");
      if (!lat && (v.size() != t.size() || v.size() != 5))
        fail_line(file, i + 1,
                  "expected a perftest bandwidth row: #bytes #iterations BW_peak BW_average "
                  "MsgRate[Mpps] (5 numbers)");
      // Every column is a size, a count, a time or a rate.
      static const char* const kLatCols[] = {"#bytes", "#iterations", "t_min", "t_max", "t_typical",
                                             "t_avg",  "t_stdev",     "99%",   "99.9%"};
      static const char* const kBwCols[] = {"#bytes", "#iterations", "BW peak", "BW average",
                                            "MsgRate"};
      for (size_t k = 0; k < v.size(); ++k)
        measured(v[k], lat ? (k < 9 ? kLatCols[k] : "latency column") : kBwCols[k], file, i + 1);
      if (lat) {
        Json row = {{"bytes", v[0]},   {"iterations", v[1]}, {"min_us", v[2]},
                    {"max_us", v[3]},  {"latency_us", v[4]}, {"stat", "typical"},
                    {"mean_us", v[5]}, {"std_us", v[6]}};
        if (v.size() > 7) row["p99_us"] = v[7];
        if (v.size() > 8) row["p999_us"] = v[8];
        out["results"].push_back(row);
      } else {
        out["results"].push_back({{"bytes", v[0]},
                                  {"iterations", v[1]},
                                  {"peak_GBps", v[2] * bw_unit_GBps},
                                  {"GBps", v[3] * bw_unit_GBps},
                                  {"msg_rate_mpps", v[4]}});
      }
    }
    if (out.is_null() || out["results"].empty())
      throw InputError(file, "", "expected a perftest table (a '#bytes' header and data rows)");
    return out;
  }
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "perftest",
               "perftest ib_*_lat / ib_*_bw stdout (latency or bandwidth table)",
               [] { return std::make_unique<PerftestImporter>(); })

}  // namespace pdsim

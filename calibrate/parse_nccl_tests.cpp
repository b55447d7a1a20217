// nccl-tests (all_reduce_perf, alltoall_perf, ...): one "collective" row per data row and
// placement (out-of-place, in-place). '#' lines are comments; the operation comes from
// "# Collective test starting: NAME" when the build prints it, else from the file name.
#include "calibrate/parse_util.hpp"

namespace pdsim {
namespace {

std::string op_from(std::string name) {
  for (const char* op : {"all_reduce", "all_gather", "alltoall", "reduce_scatter", "broadcast",
                         "reduce", "sendrecv", "scatter", "gather", "hypercube"})
    if (name.find(op) != std::string::npos) return op;
  return "unknown";
}

class NcclTestsImporter final : public MeasurementImporter {
 public:
  Json parse(const std::string& text, const std::string& file) const override {
    using namespace parse;
    Json out = envelope("collective", "nccl-tests", file);
    std::string op = op_from(file);
    const auto lines = lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view line = trim(lines[i]);
      if (line.empty()) continue;
      if (line.front() == '#') {
        Scanner s(line);
        if (s.find("Collective test starting:")) {
          if (auto w = s.word()) op = op_from(*w);
        }
        Scanner avg(line);
        if (avg.find("Avg bus bandwidth") && avg.lit(":")) {
          auto v = avg.number();
          if (!v) fail_line(file, i + 1, "expected a number after '# Avg bus bandwidth :'");
          out["parameters"]["avg_busbw_GBps"] = measured(v, "avg bus bandwidth", file, i + 1);
        }
        continue;
      }
      auto t = tokens_of(line);
      const char* want =
          "expected a nccl-tests data row: size count type redop root | time algbw busbw #wrong "
          "(out-of-place) | time algbw busbw #wrong (in-place)";
      if (t.size() != 13)
        fail_line(file, i + 1,
                  std::string(want) + ", got " + std::to_string(t.size()) + " columns");
      auto bytes = to_number(t[0]), count = to_number(t[1]), root = to_number(t[4]);
      if (!bytes || !count || !root) fail_line(file, i + 1, want);
      measured(bytes, "size (bytes)", file, i + 1);
      measured(count, "count", file, i + 1);  // root may be -1 (no root)
      for (int place = 0; place < 2; ++place) {
        size_t c = 5 + 4 * static_cast<size_t>(place);
        if (t[c] == "N/A") continue;  // some collectives have no in-place variant
        auto time = to_number(t[c]), alg = to_number(t[c + 1]), bus = to_number(t[c + 2]);
        auto wrong = to_number(t[c + 3]);
        if (!time || !alg || !bus || (!wrong && t[c + 3] != "N/A")) fail_line(file, i + 1, want);
        measured(time, "time (us)", file, i + 1);
        measured(alg, "algbw (GB/s)", file, i + 1);
        measured(bus, "busbw (GB/s)", file, i + 1);
        Json row = {{"op", op},
                    {"bytes", *bytes},
                    {"count", *count},
                    {"type", text_token(t[2], file, i + 1)},
                    {"redop", text_token(t[3], file, i + 1)},
                    {"root", *root},
                    {"placement", place == 0 ? "out-of-place" : "in-place"},
                    {"time_us", *time},
                    {"algbw_GBps", *alg},
                    {"busbw_GBps", *bus}};
        if (wrong) row["wrong"] = *wrong;
        out["results"].push_back(row);
      }
    }
    if (out["results"].empty())
      throw InputError(file, "", "expected at least one nccl-tests data row");
    return out;
  }
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "nccl-tests",
               "nccl-tests *_perf stdout (size/time/algbw/busbw table)",
               [] { return std::make_unique<NcclTestsImporter>(); })

}  // namespace pdsim

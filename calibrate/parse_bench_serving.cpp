// SGLang bench_serving --output-file: JSON Lines, one object per run (or one JSON list of them).
// Each run becomes one "bench_serving" row that keeps every key as written (the per-request
// arrays of --output-details too). Python writes a bare Infinity for request_rate=inf, which
// JSON lacks: such tokens outside strings are read as the string "Infinity" ("-Infinity",
// "NaN" likewise).
#include "calibrate/bench_serving_record.hpp"
#include "calibrate/parse_util.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

std::string quote_non_finite(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool in_str = false, esc = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (in_str) {
      out += ch;
      if (esc)
        esc = false;
      else if (ch == '\\')
        esc = true;
      else if (ch == '"')
        in_str = false;
      continue;
    }
    if (ch == '"') in_str = true;
    bool done = false;
    for (std::string_view w : {"-Infinity", "Infinity", "NaN"})
      if (s.substr(i, w.size()) == w) {
        out += "\"" + std::string(w) + "\"";
        i += w.size() - 1;
        done = true;
        break;
      }
    if (!done) out += ch;
  }
  return out;
}

constexpr const char* kWant =
    "expected one bench_serving result object per line (JSON with e.g. completed, duration, "
    "mean_ttft_ms)";

void check_run(const Json& run, const std::string& file, size_t line_no) {
  if (!run.is_object()) parse::fail_line(file, line_no, kWant);
  bool any = false;
  for (const char* k : {"completed", "duration", "mean_ttft_ms", "mean_tpot_ms", "mean_itl_ms",
                        "request_throughput", "output_throughput"})
    if (run.contains(k)) {
      any = true;
      if (!run[k].is_number())
        parse::fail_line(file, line_no, std::string("expected '") + k + "' to be a number");
    }
  if (!any) parse::fail_line(file, line_no, kWant);
  check_bench_serving_values(run, file, "line " + std::to_string(line_no));
}

class BenchServingImporter final : public MeasurementImporter {
 public:
  Json parse(const std::string& text, const std::string& file) const override {
    Json out = parse::envelope("bench_serving", "sglang bench_serving", file);
    std::string_view body = parse::trim(text);
    if (!body.empty() && body.front() == '[') {  // a list of runs
      const Json list = parse_json(quote_non_finite(body), file, "",
                                   "expected a JSON list of bench_serving results");
      for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_object()) throw InputError(file, "[" + std::to_string(i) + "]", kWant);
        check_run(list[i], file, 1);
        out["results"].push_back(list[i]);
      }
    } else {
      const auto lines = parse::lines_of(text);
      for (size_t i = 0; i < lines.size(); ++i) {
        if (parse::trim(lines[i]).empty()) continue;
        Json run =
            parse_json(quote_non_finite(lines[i]), file, "line " + std::to_string(i + 1), kWant);
        check_run(run, file, i + 1);
        out["results"].push_back(std::move(run));
      }
    }
    if (out["results"].empty())
      throw InputError(file, "", "expected at least one bench_serving result");
    return out;
  }
};

}  // namespace

PDSIM_REGISTER(MeasurementImporterRegistry, "bench_serving",
               "SGLang bench_serving --output-file JSONL (every key kept)",
               [] { return std::make_unique<BenchServingImporter>(); })

}  // namespace pdsim

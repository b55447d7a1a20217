#include "calibrate/bench_serving_artefacts.hpp"

#include <cmath>
#include <cstdio>

namespace pdsim {
namespace {

double number_or(const Json& r, const char* key, double def) {
  return r.is_object() && r.contains(key) && r.at(key).is_number() ? r.at(key).get<double>() : def;
}

}  // namespace

std::map<std::string, std::string> bench_serving_artefacts(const Json& record) {
  std::map<std::string, std::string> out;
  const double median_ttft = number_or(record, "median_ttft_ms", NAN);
  const double output = number_or(record, "total_output_tokens", NAN);
  const double retok = number_or(record, "total_output_tokens_retokenized", NAN);
  if (median_ttft == 0 && output > 0 && retok < 0.5 * output) {
    char why[320];
    std::snprintf(why, sizeof why,
                  "reasoning-parser artefact: median TTFT 0 and retokenized output %.1f%% of the "
                  "output tokens (the client timestamps only chunks with visible content)",
                  100.0 * retok / output);
    for (const char* k : {"mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p99_ttft_ms",
                          "mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p99_tpot_ms"})
      out[k] = why;
  } else if (median_ttft == 0 && number_or(record, "mean_ttft_ms", 0) > 0) {
    out["median_ttft_ms"] =
        "median TTFT 0 with a positive mean: some bench_serving builds report "
        "this under PD disaggregation";
  }
  return out;
}

}  // namespace pdsim

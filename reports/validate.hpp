#pragma once
// Prediction versus a measured bench_serving record, metric by metric:
// error_pct = (predicted − measured) / |measured| × 100. Row status:
//   "ok"             both present (error 0 when both are 0);
//   "missing"        absent or non-numeric on either side (e.g. accept_length null);
//   "untrustworthy"  a known artefact of the measured record makes the metric invalid
//                    (calibrate/bench_serving_artefacts.hpp: the reasoning-parser TTFT/TPOT
//                    artefact, the PD median-TTFT-0 quirk); no error is computed, the note says
//                    why;
//   "excluded"       the caller excludes it (a validation set's per-run `exclude`, with why);
//   "measured-zero"  any other measured 0 with a non-zero prediction (error undefined).
// Workload arguments (request rate, concurrency, lengths, range ratio) that differ between the
// two are listed under "workload_mismatches": such an error is not a model error.
#include <map>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

Json validate_against(const Json& predicted_summary, const Json& measured_record,
                      const std::map<std::string, std::string>& excluded = {});
// `measured_label` (e.g. "run.jsonl line 3") goes in the heading.
// The printed label of a bench_serving metric ("Mean TPOT (ms)"); the key itself when unknown.
std::string bench_metric_label(const std::string& key);
std::string validate_text(const Json& validation, const std::string& measured_label = "");

}  // namespace pdsim

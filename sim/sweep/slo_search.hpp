#pragma once
// SLO checks on a bench_serving summary and the capacity search: the highest request rate whose
// run meets the SLOs, by bisection on the rate (docs/sweep.md: bracket and tolerance).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace pdsim {

// The SLO metrics the summary violates ("p99_ttft_ms 812 > 500", ...); empty when it meets them.
// Requests that did not complete (completed < expected) are a violation too, and so is an offered
// rate the client did not keep to: max_concurrency held requests back for more than
// rel_tolerance of the scheduled arrival span (pdsim.offered_load), so a capacity found by the
// search is a rate the run reached.
std::vector<std::string> slo_violations(const SloSpec& slo, const Json& summary,
                                        int expected_requests);

struct SloSearchResult {
  std::optional<double> max_rate;   // highest rate evaluated that met the SLOs; none if lo failed
  std::optional<double> fail_rate;  // lowest rate evaluated that failed; none if hi passed
  std::optional<Json> summary;      // the summary at max_rate
  // [{"request_rate", "achieved_request_rate", "meets", "violations"}] in order
  Json evaluations = Json::array();
  Json to_json() const;  // without the summary
};

// `summary_at(rate)` runs the configuration at that request rate. Assumes the SLO metrics do not
// improve as the rate grows (bisection): hi is tried first (passes → capacity ≥ hi, reported as
// hi), then lo (fails → no rate in the bracket meets them), then midpoints until
// hi − lo ≤ rel_tolerance × lo.
SloSearchResult search_max_rate(const SloSpec& slo, int expected_requests,
                                const std::function<Json(double)>& summary_at);

}  // namespace pdsim

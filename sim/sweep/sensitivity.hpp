#pragma once
// `pdsim sensitivity`: which profile parameters move the predicted mean TPOT and p99 ITL most,
// i.e. what to measure first on a live cluster.
//
// Method (one at a time): every parameter p of the scenario's fabric profile (and GPU profile)
// listed by sensitivity_parameters() is set to p·(1−h) and p·(1+h) (h = step), each a separate
// forked simulation with the same seed as the base run (common random numbers: the same requests
// and routings, so the difference is the parameter's alone). The elasticity is the central
// difference in log space,
//     E = ln(M(p₊) / M(p₋)) / ln(p₊ / p₋),
// the % change of metric M per % change of p (for M = a + c·p, E = c·p / M: the share of M that p
// carries). Where one side is not a valid profile (an efficiency pushed above 1, a bound of an
// a2a backend) the other side and the base run give a one-sided difference; a parameter whose
// value is 0 is not moved by a relative step and is listed as skipped. A parameter the scenario
// never reads leaves the simulation byte-identical, so its elasticity is exactly 0.
// Ranked by max(|E_TPOT|, |E_p99 ITL|), ties by name.
#include <optional>
#include <string>
#include <vector>

#include "calibrate/sensitivity_params.hpp"

namespace pdsim {

struct SensitivityOptions {
  std::string scenario;
  std::vector<std::string> sets;    // scenario --set overrides
  std::optional<uint64_t> seed;     // default: the scenario's
  double step = 0.2;                // relative step h, in (0, 1)
  int jobs = 1;                     // simulations run at once
  std::vector<std::string> params;  // restrict to these parameter names; empty = all
  bool include_gpu = true;          // also the GPU profile's parameters
};

struct SensitivityMetrics {
  double mean_tpot_ms = 0, p99_itl_ms = 0, mean_ttft_ms = 0;
};

struct SensitivityRow {
  SensitivityParam param;
  std::string method;  // "central" | "forward" | "backward" | "skipped"
  std::optional<double> lo_value, hi_value;
  std::optional<SensitivityMetrics> lo, hi;
  std::optional<double> e_tpot, e_itl, e_ttft;
  std::string note;  // why skipped / one-sided
};

struct SensitivityResult {
  std::string scenario_name;
  uint64_t seed = 0;
  double step = 0;
  SensitivityMetrics base;
  std::vector<SensitivityRow> rows;  // ranked
  Json resolved_scenario, profiles;  // of the base run
};

// InputError / InfeasibleError for a bad scenario or option; a failed base run is an error, a
// failed perturbed run is reported in its row.
SensitivityResult run_sensitivity(const SensitivityOptions& opt);
// Every parameter name the scenario's profiles offer (for --list and error messages).
std::vector<SensitivityParam> scenario_sensitivity_parameters(const SensitivityOptions& opt);

std::string sensitivity_text(const SensitivityResult& r);
// The step as people read it: 0.2 → "20".
std::string step_percent(double step);
Json sensitivity_json(const SensitivityResult& r);

}  // namespace pdsim

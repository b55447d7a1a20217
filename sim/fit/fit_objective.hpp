#pragma once
// What the serving fit minimises: for every run and every compared metric the log ratio
// r = ln(predicted / measured), so a 10 % miss weighs the same on a 35 ms ITL and on a 300 s
// duration; the objective is Σ r². A metric is fitted to when the run measured it and it is
// neither an artefact of the record nor excluded by the set, from comparison or from fitting
// (validation_set.hpp).
#include <string>
#include <vector>

#include "sim/fit/validation_set.hpp"

namespace pdsim {

// The metrics the fit compares by default: what a bench_serving record with the reasoning-parser
// artefact still measures cleanly, per forward and per request.
const std::vector<std::string>& default_fit_metrics();

struct Residual {
  size_t run = 0;  // index in the set
  std::string metric;
  double predicted = 0, measured = 0;
  double log_ratio = 0;  // ln(predicted / measured); a large penalty when predicted <= 0
};

// Residuals of `runs` (indices into the set) given their predicted summaries, in run then metric
// order; metrics a run does not fit to (or, with `fitted_only` false, does not compare) are left
// out.
std::vector<Residual> fit_residuals(const ValidationSet& set, const std::vector<size_t>& runs,
                                    const std::vector<Json>& predicted,
                                    const std::vector<std::string>& metrics,
                                    bool fitted_only = true);
double sum_of_squares(const std::vector<Residual>& r);

}  // namespace pdsim

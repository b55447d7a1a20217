#include "sim/fit/fit_objective.hpp"

#include <cmath>

namespace pdsim {

const std::vector<std::string>& default_fit_metrics() {
  static const std::vector<std::string> m = {"duration", "mean_e2e_latency_ms", "median_itl_ms",
                                             "p99_itl_ms"};
  return m;
}

std::vector<Residual> fit_residuals(const ValidationSet& set, const std::vector<size_t>& runs,
                                    const std::vector<Json>& predicted,
                                    const std::vector<std::string>& metrics, bool fitted_only) {
  std::vector<Residual> out;
  for (size_t k = 0; k < runs.size(); ++k) {
    const ValidationRun& run = set.runs[runs[k]];
    for (const auto& m : metrics) {
      if (fitted_only ? !run.fittable(m) : !run.comparable(m)) continue;
      Residual r;
      r.run = runs[k];
      r.metric = m;
      r.measured = run.measured.at(m).get<double>();
      const Json& p = predicted[k];
      r.predicted = p.contains(m) && p.at(m).is_number() ? p.at(m).get<double>() : 0.0;
      // A prediction of 0 (nothing simulated) is as far off as a factor e^10.
      r.log_ratio = r.predicted > 0 && r.measured > 0 ? std::log(r.predicted / r.measured) : 10.0;
      out.push_back(r);
    }
  }
  return out;
}

double sum_of_squares(const std::vector<Residual>& r) {
  double s = 0;
  for (const auto& x : r) s += x.log_ratio * x.log_ratio;
  return s;
}

}  // namespace pdsim

#include "sim/fit/leave_one_out.hpp"

#include <cmath>
#include <set>

#include "sim/fit/fit_minimizer.hpp"
#include "sim/fit/local_jacobian.hpp"

namespace pdsim {

LeaveOneOut leave_one_out(Evaluator& ev, size_t k, const std::vector<std::vector<double>>& starts,
                          const Eigen::MatrixXd& J, const std::vector<Residual>& rows,
                          int max_evaluations) {
  const ValidationSet& set = ev.predictor().set();
  const std::vector<FitParameter>& params = ev.params();
  LeaveOneOut l;
  l.run = k;
  std::vector<size_t> others;
  for (size_t i = 0; i < set.runs.size(); ++i)
    if (i != k) others.push_back(i);
  std::vector<Eigen::Index> keep;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].run != k) keep.push_back(static_cast<Eigen::Index>(i));
  // Hold, one by one, the weakest parameter the other runs cannot identify.
  std::vector<size_t> free;
  for (size_t j = 0; j < params.size(); ++j) free.push_back(j);
  while (!free.empty()) {
    Eigen::MatrixXd Jk(static_cast<Eigen::Index>(keep.size()),
                       static_cast<Eigen::Index>(free.size()));
    std::vector<std::string> names;
    std::vector<double> range;
    for (size_t c = 0; c < free.size(); ++c) {
      for (size_t r = 0; r < keep.size(); ++r)
        Jk(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) =
            J(keep[r], static_cast<Eigen::Index>(free[c]));
      names.push_back(params[free[c]].path);
      range.push_back(params[free[c]].hi - params[free[c]].lo);
    }
    if (identifiability_problems(Jk, names, range).empty()) break;
    size_t weakest = 0;
    double weakest_norm = HUGE_VAL;
    for (size_t c = 0; c < free.size(); ++c) {
      const double nrm = Jk.col(static_cast<Eigen::Index>(c)).norm() * range[c];
      if (nrm < weakest_norm) {
        weakest_norm = nrm;
        weakest = c;
      }
    }
    free.erase(free.begin() + static_cast<long>(weakest));
  }
  std::set<size_t> is_free(free.begin(), free.end());
  for (size_t j = 0; j < params.size(); ++j)
    (is_free.count(j) ? l.refit : l.held).push_back(params[j].path);
  std::vector<std::vector<double>> from = starts;
  for (auto& theta : from)
    for (size_t j = 0; j < params.size(); ++j)
      if (!is_free.count(j)) theta[j] = params[j].start;
  const Minimum m = minimize_from(ev, others, free, from, max_evaluations, {}).best;
  l.theta = m.theta;
  l.converged = m.converged;
  // Every metric the run left out compares, fitted to or not.
  l.residuals = fit_residuals(
      set, {k}, ev.predictor().predict({k}, {make_overlay(params, m.theta, "loo", Json(), Json())}),
      ev.metrics(),
      /*fitted_only=*/false);
  return l;
}

}  // namespace pdsim

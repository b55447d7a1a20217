#include "sim/fit/leave_one_out.hpp"

#include <cmath>
#include <set>

#include "sim/fit/fit_minimizer.hpp"
#include "sim/fit/local_jacobian.hpp"

namespace pdsim {

LeaveOneOut leave_one_out(Evaluator& ev, const LeaveOutGroup& left,
                          const std::vector<std::vector<double>>& starts, const Eigen::MatrixXd& J,
                          const std::vector<Residual>& rows, int max_evaluations) {
  const ValidationSet& set = ev.predictor().set();
  const std::vector<FitParameter>& params = ev.params();
  LeaveOneOut l;
  l.label = left.label;
  l.runs = left.runs;
  const std::set<size_t> out(left.runs.begin(), left.runs.end());
  std::vector<size_t> others;
  for (size_t i = 0; i < set.runs.size(); ++i)
    if (!out.count(i)) others.push_back(i);
  std::vector<Eigen::Index> keep;
  for (size_t i = 0; i < rows.size(); ++i)
    if (!out.count(rows[i].run)) keep.push_back(static_cast<Eigen::Index>(i));
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
  // Every metric the runs left out compare, fitted to or not.
  l.residuals = fit_residuals(
      set, l.runs,
      ev.predictor().predict(l.runs, {make_overlay(params, m.theta, "loo", Json(), Json())}),
      ev.metrics(),
      /*fitted_only=*/false);
  // The linear picture at the fold's optimum: the other runs' Jacobian (fitted metrics), the runs
  // left out's (every compared metric, as above), both over every parameter.
  std::vector<double> range;
  std::vector<bool> free_mask(params.size());
  for (size_t j = 0; j < params.size(); ++j) {
    range.push_back(params[j].hi - params[j].lo);
    free_mask[j] = is_free.count(j) > 0;
  }
  const Eigen::MatrixXd J_others = jacobian_at(ev, others, m.theta, 0.01);
  const Eigen::MatrixXd J_left =
      jacobian_in_ranges(params, m.theta, 0.01, [&](const std::vector<std::vector<double>>& pts) {
        std::vector<std::vector<ProfileOverlay>> candidates;
        for (const auto& theta : pts)
          candidates.push_back({make_overlay(params, theta, "loo", Json(), Json())});
        std::vector<std::vector<double>> r;
        for (const auto& pred : ev.predictor().predict_many(l.runs, candidates)) {
          r.emplace_back();
          for (const auto& x :
               fit_residuals(set, l.runs, pred, ev.metrics(), /*fitted_only=*/false))
            r.back().push_back(x.log_ratio);
        }
        return r;
      });
  l.spread =
      loo_spread(J_others, sum_of_squares(ev.eval1(others, m.theta)), J_left, free_mask, range);
  return l;
}

}  // namespace pdsim

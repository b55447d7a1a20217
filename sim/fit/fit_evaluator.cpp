#include "sim/fit/fit_evaluator.hpp"

#include "sim/fit/local_jacobian.hpp"

namespace pdsim {
namespace {

std::vector<double> log_ratios(const std::vector<Residual>& r) {
  std::vector<double> v;
  for (const auto& x : r) v.push_back(x.log_ratio);
  return v;
}

}  // namespace

std::vector<std::vector<Residual>> Evaluator::eval(const std::vector<size_t>& runs,
                                                   const std::vector<std::vector<double>>& thetas) {
  std::vector<std::vector<Residual>> out(thetas.size());
  std::vector<std::vector<ProfileOverlay>> todo;
  std::vector<size_t> where;
  for (size_t c = 0; c < thetas.size(); ++c) {
    auto it = memo_.find({runs, thetas[c]});
    if (it != memo_.end()) {
      out[c] = it->second;
      continue;
    }
    todo.push_back({make_overlay(params_, thetas[c], "candidate", Json(), Json())});
    where.push_back(c);
  }
  if (!todo.empty()) {
    const auto preds = pred_.predict_many(runs, todo);
    for (size_t k = 0; k < todo.size(); ++k) {
      out[where[k]] = fit_residuals(pred_.set(), runs, preds[k], metrics_);
      memo_[{runs, thetas[where[k]]}] = out[where[k]];
      ++evaluations_;
    }
  }
  return out;
}

Eigen::MatrixXd jacobian_in_ranges(
    const std::vector<FitParameter>& params, const std::vector<double>& theta, double rel_step,
    const std::function<std::vector<std::vector<double>>(const std::vector<std::vector<double>>&)>&
        batch) {
  std::vector<double> step, lo, hi;
  for (const auto& p : params) {
    step.push_back(rel_step * (p.hi - p.lo));
    lo.push_back(p.lo);
    hi.push_back(p.hi);
  }
  return central_jacobian(batch, theta, step, lo, hi);
}

std::vector<size_t> widen_flat_columns(Evaluator& ev, const std::vector<size_t>& runs,
                                       const std::vector<double>& theta, Eigen::MatrixXd& J,
                                       double flat) {
  const auto& params = ev.params();
  std::vector<size_t> cols;
  std::vector<std::vector<double>> ends;
  for (size_t j = 0; j < params.size(); ++j) {
    const double range = params[j].hi - params[j].lo;
    if ((J.col(static_cast<Eigen::Index>(j)) * range).norm() >= flat) continue;
    cols.push_back(j);
    for (double x : {params[j].lo, params[j].hi}) {
      ends.push_back(theta);
      ends.back()[j] = x;
    }
  }
  if (cols.empty()) return cols;
  const auto r = ev.eval(runs, ends);
  for (size_t k = 0; k < cols.size(); ++k) {
    const auto lo = log_ratios(r[2 * k]), hi = log_ratios(r[2 * k + 1]);
    const double range = params[cols[k]].hi - params[cols[k]].lo;
    for (size_t i = 0; i < lo.size() && i < static_cast<size_t>(J.rows()); ++i)
      J(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(cols[k])) = (hi[i] - lo[i]) / range;
  }
  return cols;
}

Eigen::MatrixXd jacobian_at(Evaluator& ev, const std::vector<size_t>& runs,
                            const std::vector<double>& theta, double rel_step) {
  return jacobian_in_ranges(ev.params(), theta, rel_step,
                            [&](const std::vector<std::vector<double>>& pts) {
                              std::vector<std::vector<double>> r;
                              for (const auto& res : ev.eval(runs, pts))
                                r.push_back(log_ratios(res));
                              return r;
                            });
}

}  // namespace pdsim

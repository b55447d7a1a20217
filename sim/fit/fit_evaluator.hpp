#pragma once
// The fit's objective as a function of the parameter vector: each θ becomes an overlay, every run
// is simulated under it (set_predictor.hpp) and its residuals computed (fit_objective.hpp).
// Memoised, since the optimiser and the Jacobians revisit points; evaluations of several θ at once
// share the worker pool.
#include <Eigen/Dense>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/fit/fit_loss.hpp"
#include "sim/fit/fit_objective.hpp"
#include "sim/fit/fit_parameter.hpp"
#include "sim/fit/set_predictor.hpp"

namespace pdsim {

class Evaluator {
 public:
  Evaluator(const SetPredictor& pred, const std::vector<FitParameter>& params,
            const std::vector<std::string>& metrics, FitLoss loss = {})
      : pred_(pred), params_(params), metrics_(metrics), loss_(loss) {}

  // Residuals of `runs` (fitted metrics) for each θ in `thetas`.
  std::vector<std::vector<Residual>> eval(const std::vector<size_t>& runs,
                                          const std::vector<std::vector<double>>& thetas);
  std::vector<Residual> eval1(const std::vector<size_t>& runs, const std::vector<double>& theta) {
    return eval(runs, {theta}).front();
  }
  int evaluations() const { return evaluations_; }
  const SetPredictor& predictor() const { return pred_; }
  const std::vector<FitParameter>& params() const { return params_; }
  const std::vector<std::string>& metrics() const { return metrics_; }
  // What the optimiser minimises over residuals (fit_loss.hpp; Σ r² by default).
  const FitLoss& loss() const { return loss_; }

 private:
  const SetPredictor& pred_;
  const std::vector<FitParameter>& params_;
  const std::vector<std::string>& metrics_;
  FitLoss loss_;
  std::map<std::pair<std::vector<size_t>, std::vector<double>>, std::vector<Residual>> memo_;
  int evaluations_ = 0;
};

// The residuals' Jacobian at θ by central differences, each step `rel_step` of the range.
Eigen::MatrixXd jacobian_at(Evaluator& ev, const std::vector<size_t>& runs,
                            const std::vector<double>& theta, double rel_step);
// A parameter the local Jacobian sees as flat may only sit on a plateau (host work hidden under
// GPU time until it exceeds it): each column whose change over the parameter's range,
// extrapolated from the slope, is below `flat` in every log residual is replaced by the secant
// between the range's ends (two more evaluations), so "flat" means flat end to end.
// Returns the widened columns.
std::vector<size_t> widen_flat_columns(Evaluator& ev, const std::vector<size_t>& runs,
                                       const std::vector<double>& theta, Eigen::MatrixXd& J,
                                       double flat);
// The same over any residual function of θ, evaluated in batches (`batch`: residuals per point).
Eigen::MatrixXd jacobian_in_ranges(
    const std::vector<FitParameter>& params, const std::vector<double>& theta, double rel_step,
    const std::function<std::vector<std::vector<double>>(const std::vector<std::vector<double>>&)>&
        batch);

}  // namespace pdsim

#pragma once
// Leave-one-out over a validation set's runs: the fit on the other runs predicts the one left out,
// or the group of runs left out together (leave_out_groups.hpp: a whole deployment).
// Which parameters the other runs can identify comes from the full fit's Jacobian without the
// left-out run's rows (local_jacobian.hpp): one by one, the weakest parameter they cannot identify
// is held at the profile's value (its start), never at the full fit's value, which would carry
// information from the run left out. The others are refitted from the full fit's start points
// (fit_starts.hpp: they depend on the ranges only), not from its optimum, which the run left out
// helped to place: with more than one basin, starting there would pull the refit into it.
// Each prediction of the run left out comes with the σ of its log ratio (loo_interval.hpp): what
// the other runs leave unknown about it, fitted parameters and held ones alike.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "sim/fit/fit_evaluator.hpp"
#include "sim/fit/leave_out_groups.hpp"
#include "sim/fit/loo_interval.hpp"

namespace pdsim {

struct LeaveOneOut {
  std::string label;         // the run's name, or the group's (leave_out_groups.hpp)
  std::vector<size_t> runs;  // left out, ascending
  std::vector<std::string> refit, held;
  std::vector<double> theta;  // every parameter, held ones at the profile's value
  bool converged = false;
  std::vector<Residual> residuals;  // of the runs left out: every compared metric
  std::vector<LooSpread> spread;    // per residual: σ of ln(predicted / measured); NaN: unknown
};

// `starts`: the full fit's start points; `J` and `rows`: the Jacobian at the full fit's optimum
// and the residuals its rows are.
LeaveOneOut leave_one_out(Evaluator& ev, const LeaveOutGroup& left,
                          const std::vector<std::vector<double>>& starts, const Eigen::MatrixXd& J,
                          const std::vector<Residual>& rows, int max_evaluations);

}  // namespace pdsim

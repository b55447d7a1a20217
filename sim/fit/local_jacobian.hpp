#pragma once
// The fit's local linear picture: the Jacobian of the residual vector by central differences, what
// it says about identifiability before a fit, and the parameters' covariance after it.
//   identifiability: columns scaled to each parameter's range; a parameter whose column is ~0 is
//     one no compared metric depends on; a near-singular scaled J (smallest singular value below
//     5 % of the largest: two parameters correlated beyond about 0.995, allowing for the
//     simulations' discreteness) means some parameters move the residuals together and the runs
//     cannot separate them — the fit refuses, naming them;
//   uncertainty: cov = s² (JᵀJ)⁻¹ with s² = SSE / (n − p) (the residuals' own scatter, since the
//     runs carry no error bars), standard errors √diag, correlations cov_ij / (se_i se_j).
#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

namespace pdsim {

using ResidualFn = std::function<std::vector<double>(const std::vector<double>& theta)>;

// J[i][j] = (r_i(θ + h_j e_j) − r_i(θ − h_j e_j)) / (2 h_j), with each point clipped into
// [lo, hi] (a one-sided difference at a bound). Evaluates all 2p points through `batch` (so the
// caller can run them in parallel).
Eigen::MatrixXd central_jacobian(
    const std::function<std::vector<std::vector<double>>(const std::vector<std::vector<double>>&)>&
        batch,
    const std::vector<double>& theta, const std::vector<double>& step,
    const std::vector<double>& lo, const std::vector<double>& hi);

// Messages naming each parameter the runs cannot identify (empty: all identifiable). `range` is
// each parameter's fit range (hi − lo), used to scale the columns.
std::vector<std::string> identifiability_problems(const Eigen::MatrixXd& J,
                                                  const std::vector<std::string>& names,
                                                  const std::vector<double>& range);

struct ParameterUncertainty {
  int dof = 0;
  double s2 = 0;           // residual variance SSE / dof
  std::vector<double> se;  // standard errors (NaN when dof <= 0 or JᵀJ singular)
  Eigen::MatrixXd cov, corr;
};
ParameterUncertainty parameter_uncertainty(const Eigen::MatrixXd& J, double sse);

}  // namespace pdsim

#pragma once
// Linear least squares with lower bounds, min ‖Aθ − y‖² s.t. θ ≥ lower, by Lawson–Hanson NNLS
// on θ − lower. Standard errors come from the residual variance and (A_Fᵀ A_F)⁻¹ over the free
// parameters F (those not held at their bound); a parameter at its bound has none.
#include <Eigen/Dense>
#include <vector>

namespace pdsim {

struct BoundedLsq {
  Eigen::VectorXd theta;
  std::vector<bool> at_bound;    // held at its lower bound by the constraint
  std::vector<bool> identified;  // its column is not all zero
  Eigen::VectorXd residuals;     // y − Aθ
  double sse = 0;
  int dof = 0;                    // rows − free parameters
  std::vector<double> std_error;  // NaN where undefined (at bound, dof ≤ 0, singular)
};

BoundedLsq bounded_least_squares(const Eigen::MatrixXd& A, const Eigen::VectorXd& y,
                                 const Eigen::VectorXd& lower);

}  // namespace pdsim

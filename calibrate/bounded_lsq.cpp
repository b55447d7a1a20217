#include "calibrate/bounded_lsq.hpp"

#include <cmath>
#include <limits>

namespace pdsim {
namespace {

// Unconstrained least squares on the columns in `set`, zero elsewhere.
Eigen::VectorXd solve_on(const Eigen::MatrixXd& A, const Eigen::VectorXd& y,
                         const std::vector<bool>& set) {
  std::vector<Eigen::Index> cols;
  for (size_t j = 0; j < set.size(); ++j)
    if (set[j]) cols.push_back(static_cast<Eigen::Index>(j));
  Eigen::VectorXd out = Eigen::VectorXd::Zero(A.cols());
  if (cols.empty()) return out;
  Eigen::MatrixXd sub(A.rows(), static_cast<Eigen::Index>(cols.size()));
  for (size_t k = 0; k < cols.size(); ++k) sub.col(static_cast<Eigen::Index>(k)) = A.col(cols[k]);
  Eigen::VectorXd s = sub.colPivHouseholderQr().solve(y);
  for (size_t k = 0; k < cols.size(); ++k) out(cols[k]) = s(static_cast<Eigen::Index>(k));
  return out;
}

}  // namespace

BoundedLsq bounded_least_squares(const Eigen::MatrixXd& A, const Eigen::VectorXd& y,
                                 const Eigen::VectorXd& lower) {
  const Eigen::Index n = A.cols();
  const Eigen::VectorXd yz = y - A * lower;  // problem in z = θ − lower ≥ 0
  std::vector<bool> passive(static_cast<size_t>(n), false);
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  const double tol = 1e-12 * (1.0 + A.cwiseAbs().maxCoeff()) * (1.0 + yz.cwiseAbs().maxCoeff());
  for (int outer = 0; outer < 10 * static_cast<int>(n) + 10; ++outer) {
    Eigen::VectorXd w = A.transpose() * (yz - A * z);
    Eigen::Index best = -1;
    for (Eigen::Index j = 0; j < n; ++j)
      if (!passive[static_cast<size_t>(j)] && w(j) > tol && (best < 0 || w(j) > w(best))) best = j;
    if (best < 0) break;
    passive[static_cast<size_t>(best)] = true;
    for (int inner = 0; inner < 10 * static_cast<int>(n) + 10; ++inner) {
      Eigen::VectorXd s = solve_on(A, yz, passive);
      bool feasible = true;
      double step = 1.0;
      for (Eigen::Index j = 0; j < n; ++j) {
        if (passive[static_cast<size_t>(j)] && s(j) <= 0) {
          feasible = false;
          step = std::min(step, z(j) / (z(j) - s(j)));
        }
      }
      if (feasible) {
        z = s;
        break;
      }
      z += step * (s - z);
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[static_cast<size_t>(j)] && z(j) <= tol) {
          passive[static_cast<size_t>(j)] = false;
          z(j) = 0;
        }
    }
  }
  BoundedLsq r;
  r.theta = z + lower;
  r.residuals = y - A * r.theta;
  r.sse = r.residuals.squaredNorm();
  int free_count = 0;
  std::vector<Eigen::Index> free_cols;
  for (Eigen::Index j = 0; j < n; ++j) {
    const bool ident = A.col(j).cwiseAbs().maxCoeff() > 0;
    const bool bound = !passive[static_cast<size_t>(j)];
    r.identified.push_back(ident);
    r.at_bound.push_back(bound);
    if (!bound) {
      ++free_count;
      free_cols.push_back(j);
    }
  }
  r.dof = static_cast<int>(A.rows()) - free_count;
  r.std_error.assign(static_cast<size_t>(n), std::numeric_limits<double>::quiet_NaN());
  if (r.dof > 0 && !free_cols.empty()) {
    Eigen::MatrixXd F(A.rows(), static_cast<Eigen::Index>(free_cols.size()));
    for (size_t k = 0; k < free_cols.size(); ++k)
      F.col(static_cast<Eigen::Index>(k)) = A.col(free_cols[k]);
    Eigen::MatrixXd ftf = F.transpose() * F;
    Eigen::FullPivLU<Eigen::MatrixXd> lu(ftf);
    if (lu.isInvertible()) {
      Eigen::MatrixXd cov = (r.sse / r.dof) * lu.inverse();
      for (size_t k = 0; k < free_cols.size(); ++k)
        r.std_error[static_cast<size_t>(free_cols[k])] =
            std::sqrt(cov(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(k)));
    }
  }
  return r;
}

}  // namespace pdsim

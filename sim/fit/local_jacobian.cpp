#include "sim/fit/local_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pdsim {

Eigen::MatrixXd central_jacobian(
    const std::function<std::vector<std::vector<double>>(const std::vector<std::vector<double>>&)>&
        batch,
    const std::vector<double>& theta, const std::vector<double>& step,
    const std::vector<double>& lo, const std::vector<double>& hi) {
  const size_t p = theta.size();
  std::vector<std::vector<double>> points;
  std::vector<double> span(p);
  for (size_t j = 0; j < p; ++j) {
    std::vector<double> up = theta, down = theta;
    up[j] = std::min(hi[j], theta[j] + step[j]);
    down[j] = std::max(lo[j], theta[j] - step[j]);
    span[j] = up[j] - down[j];
    points.push_back(up);
    points.push_back(down);
  }
  const auto r = batch(points);
  const size_t n = r.empty() ? 0 : r[0].size();
  Eigen::MatrixXd J =
      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(p));
  for (size_t j = 0; j < p; ++j)
    for (size_t i = 0; i < n; ++i)
      J(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          span[j] > 0 ? (r[2 * j][i] - r[2 * j + 1][i]) / span[j] : 0.0;
  return J;
}

std::vector<std::string> identifiability_problems(const Eigen::MatrixXd& J,
                                                  const std::vector<std::string>& names,
                                                  const std::vector<double>& range) {
  std::vector<std::string> out;
  const Eigen::Index p = J.cols();
  Eigen::MatrixXd S = J;
  std::vector<bool> flat(static_cast<size_t>(p), false);
  for (Eigen::Index j = 0; j < p; ++j) {
    S.col(j) *= range[static_cast<size_t>(j)];
    // Over its whole range the parameter moves no log residual by as much as 0.001 (0.1 %).
    if (S.col(j).norm() < 1e-3) {
      flat[static_cast<size_t>(j)] = true;
      out.push_back(names[static_cast<size_t>(j)] +
                    ": no compared metric of these runs depends on it (over its whole range it "
                    "moves them by less than 0.1 %)");
    }
  }
  std::vector<Eigen::Index> keep;
  for (Eigen::Index j = 0; j < p; ++j)
    if (!flat[static_cast<size_t>(j)]) keep.push_back(j);
  if (keep.size() < 2) return out;
  Eigen::MatrixXd K(S.rows(), static_cast<Eigen::Index>(keep.size()));
  for (size_t k = 0; k < keep.size(); ++k)
    K.col(static_cast<Eigen::Index>(k)) = S.col(keep[k]).normalized();
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(K, Eigen::ComputeFullV);
  const auto& sv = svd.singularValues();
  const double smax = sv(0);
  // The simulations' discreteness (which requests share an iteration shifts with the timings)
  // adds noise of about 1e-3 to the columns, so exact collinearity shows as a small singular value,
  // not a zero: below 5 % of the largest (two parameters correlated beyond about 0.995) the
  // direction is not determined by the runs.
  for (Eigen::Index k = sv.size() - 1; k >= 0 && sv(k) < 0.05 * smax; --k) {
    // The parameters with weight in this near-null direction move the residuals together.
    std::string who;
    const auto v = svd.matrixV().col(k);
    for (Eigen::Index m = 0; m < v.size(); ++m)
      if (std::abs(v(m)) > 0.2)
        who += (who.empty() ? "" : ", ") + names[static_cast<size_t>(keep[static_cast<size_t>(m)])];
    out.push_back(who +
                  ": these runs cannot separate them (they move the compared metrics "
                  "together; singular value " +
                  std::to_string(sv(k) / smax) + " of the largest)");
  }
  if (K.rows() < K.cols())
    out.push_back("the runs give " + std::to_string(K.rows()) + " compared metrics for " +
                  std::to_string(K.cols()) + " parameters");
  return out;
}

ParameterUncertainty parameter_uncertainty(const Eigen::MatrixXd& J, double sse) {
  ParameterUncertainty u;
  const Eigen::Index n = J.rows(), p = J.cols();
  u.dof = static_cast<int>(n - p);
  u.se.assign(static_cast<size_t>(p), std::numeric_limits<double>::quiet_NaN());
  u.cov = Eigen::MatrixXd::Constant(p, p, std::numeric_limits<double>::quiet_NaN());
  u.corr = u.cov;
  if (u.dof <= 0) return u;
  u.s2 = sse / u.dof;
  const Eigen::MatrixXd JtJ = J.transpose() * J;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(JtJ);
  if (!lu.isInvertible()) return u;
  u.cov = u.s2 * lu.inverse();
  for (Eigen::Index i = 0; i < p; ++i)
    u.se[static_cast<size_t>(i)] = std::sqrt(std::max(0.0, u.cov(i, i)));
  for (Eigen::Index i = 0; i < p; ++i)
    for (Eigen::Index j = 0; j < p; ++j) {
      const double d = u.se[static_cast<size_t>(i)] * u.se[static_cast<size_t>(j)];
      u.corr(i, j) = d > 0 ? u.cov(i, j) / d : (i == j ? 1.0 : 0.0);
    }
  return u;
}

}  // namespace pdsim

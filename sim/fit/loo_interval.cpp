#include "sim/fit/loo_interval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pdsim {

std::vector<LooSpread> loo_spread(const Eigen::MatrixXd& J_others, double sse_others,
                                  const Eigen::MatrixXd& J_left, const std::vector<bool>& is_free,
                                  const std::vector<double>& range) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<LooSpread> sigma(static_cast<size_t>(J_left.rows()), LooSpread{nan, nan, nan, nan});
  std::vector<Eigen::Index> F, H;
  for (size_t j = 0; j < is_free.size(); ++j)
    (is_free[j] ? F : H).push_back(static_cast<Eigen::Index>(j));
  const Eigen::Index n = J_others.rows(), nf = static_cast<Eigen::Index>(F.size());
  if (n <= nf) return sigma;
  const double s2 = sse_others / static_cast<double>(n - nf);
  Eigen::MatrixXd JF(n, nf), JH(n, static_cast<Eigen::Index>(H.size()));
  for (Eigen::Index c = 0; c < nf; ++c) JF.col(c) = J_others.col(F[static_cast<size_t>(c)]);
  for (Eigen::Index c = 0; c < JH.cols(); ++c) JH.col(c) = J_others.col(H[static_cast<size_t>(c)]);
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(nf, nf), D = Eigen::MatrixXd::Zero(nf, JH.cols());
  if (nf > 0) {
    Eigen::FullPivLU<Eigen::MatrixXd> lu(JF.transpose() * JF);
    if (!lu.isInvertible()) return sigma;
    const Eigen::MatrixXd inv = lu.inverse();
    C = s2 * inv;
    D = -inv * JF.transpose() * JH;
  }
  for (Eigen::Index i = 0; i < J_left.rows(); ++i) {
    Eigen::RowVectorXd gF(nf);
    for (Eigen::Index c = 0; c < nf; ++c) gF(c) = J_left(i, F[static_cast<size_t>(c)]);
    LooSpread& out = sigma[static_cast<size_t>(i)];
    out.refitted = std::max(0.0, (gF * C * gF.transpose())(0, 0));
    out.scatter = s2;
    out.held = 0;
    for (Eigen::Index c = 0; c < JH.cols(); ++c) {
      const size_t h = static_cast<size_t>(H[static_cast<size_t>(c)]);
      const double g = J_left(i, H[static_cast<size_t>(c)]) + (nf > 0 ? (gF * D.col(c))(0, 0) : 0);
      out.held += g * g * range[h] * range[h] / 12.0;
    }
    out.sigma = std::sqrt(out.refitted + out.held + out.scatter);
  }
  return sigma;
}

}  // namespace pdsim

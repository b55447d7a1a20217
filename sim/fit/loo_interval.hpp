#pragma once
// How far the prediction of a run left out can be trusted, in the fit's own linear picture (the
// delta method on the log ratios r = ln(predicted / measured)), at the fold's optimum:
//   - the parameters the other runs refit (F) vary with their covariance C = s² (J_Fᵀ J_F)⁻¹,
//     J the other runs' Jacobian and s² = SSE / (n − |F|) their residual scatter;
//   - a parameter the other runs cannot identify (H, held at the profile's value) is unknown
//     across its declared fit range: standard deviation range / √12, that of a uniform over
//     [LO, HI]. The refitted ones follow it as the other runs require,
//     dθ_F/dθ_h = −(J_Fᵀ J_F)⁻¹ J_Fᵀ J_h;
//   - a new run also misses by the residuals' own scatter s², as the fitted runs do.
// For each metric i of the run left out, with g = ∂r_i/∂θ on that run:
//   σ_i² = g_F C g_Fᵀ + Σ_h (g_h + g_F dθ_F/dθ_h)² range_h² / 12 + s²,
// and the 90 % interval of the prediction is predicted · exp(±1.645 σ_i).
// Linear, so it ignores the model's curvature, which over a held parameter's whole range can be
// large: it tells whether a leave-one-out miss is within what the other runs can know about the run
// left out (a data limit) or outside it (a model limit).
#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <vector>

namespace pdsim {

// z of a two-sided 90 % normal interval.
inline constexpr double kZ90 = 1.6448536269514722;

// One metric of the run left out: σ² and its three parts, in that order above.
struct LooSpread {
  double sigma = 0;  // √(refitted + held + scatter)
  double refitted = 0, held = 0, scatter = 0;

  // The 90 % interval of the error % of `predicted` against `measured`, lower bound first:
  // (predicted · exp(∓1.645 σ) / measured − 1) · 100. One rule for the JSON and the text report.
  std::array<double, 2> error_pct_90(double predicted, double measured) const {
    return {(predicted * std::exp(-kZ90 * sigma) / measured - 1.0) * 100.0,
            (predicted * std::exp(kZ90 * sigma) / measured - 1.0) * 100.0};
  }
  // Whether a prediction with log ratio ln(predicted / measured) has its measured value inside.
  bool inside_90(double log_ratio) const { return std::fabs(log_ratio) <= kZ90 * sigma; }
};

// The spread of each row of `J_left` (the run left out: rows = its metrics, columns = every
// parameter). `J_others`: the other runs' residual Jacobian (same columns); `sse_others`: their
// Σ r² at the fold's optimum; `is_free[j]`: refitted (true) or held (false); `range[j]` = hi − lo.
// Every σ is NaN when the other runs leave no degree of freedom (n ≤ |F|) or J_Fᵀ J_F is singular.
std::vector<LooSpread> loo_spread(const Eigen::MatrixXd& J_others, double sse_others,
                                  const Eigen::MatrixXd& J_left, const std::vector<bool>& is_free,
                                  const std::vector<double>& range);

}  // namespace pdsim

#pragma once
// The serving fit's loss on each log ratio r = ln(predicted / measured) (fit_objective.hpp),
// declared once here with its scale c in the same units (about a relative error: c = 0.1 is a
// 10 % miss). Each ρ equals r² for |r| much smaller than c, so the three agree on a good fit:
//   l2      ρ(r) = r²                                 (the default: shipped overlays unchanged)
//   huber   ρ(r) = r² for |r| <= c, else 2c|r| − c²   (linear tail: an outlier pulls with a
//                                                      constant force 2c)
//   cauchy  ρ(r) = c² ln(1 + (r/c)²)                  (an outlier's pull 2r / (1 + (r/c)²)
//                                                      vanishes as r grows; not convex)
// A tail sample (R2's p99 ITL: a stall of 177 ms against 55 ms per forward, r = 1.2) dominates
// Σ r² and drags every parameter; under huber or cauchy it weighs about as much as a 2c error.
// The optimiser minimises Σ ρ; the standard errors still come from Σ r² (s² = SSE / (n − p)),
// which an outlier inflates: wider, not narrower.
#include <string>
#include <vector>

#include "sim/fit/fit_objective.hpp"

namespace pdsim {

enum class LossKind { l2, huber, cauchy };

struct FitLoss {
  LossKind kind = LossKind::l2;
  double scale = 0.1;  // c, in log-ratio units

  // "l2", "huber" or "cauchy"; InputError (field --loss) otherwise or for a scale outside
  // (0, 10].
  static FitLoss parse(const std::string& name, double scale);
  std::string name() const;
  double rho(double r) const;
  // Σ ρ(r.log_ratio); for l2 exactly sum_of_squares(rs).
  double total(const std::vector<Residual>& rs) const;
  // What progress lines call the objective ("sum of squared log errors" for l2).
  std::string label() const;
  std::string scale_text() const;  // the scale, shortest form ("0.1")
};

}  // namespace pdsim

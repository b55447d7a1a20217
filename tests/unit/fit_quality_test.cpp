// sim/fit/fit_quality: each warning on a hand-made converged fit, at and past its threshold.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/fit/fit_quality.hpp"

namespace pdsim {
namespace fit_quality_test {

ValidationSet two_runs() {
  ValidationSet s;
  s.runs.resize(2);
  s.runs[0].name = "A";
  s.runs[1].name = "B";
  return s;
}

FitParameter param(const std::string& path, double lo, double hi) {
  FitParameter p;
  p.path = path;
  p.lo = lo;
  p.hi = hi;
  return p;
}

std::vector<std::string> kinds(const std::vector<FitWarning>& w) {
  std::vector<std::string> out;
  for (const auto& x : w) out.push_back(x.kind);
  return out;
}

TEST(FitQuality, AGoodFitHasNone) {
  ParameterUncertainty u;
  u.se = {0.5};  // 5 % of the value
  const std::vector<Residual> rs = {{0, "duration", 109.9, 100, std::log(1.099)},
                                    {1, "duration", 90.1, 100, std::log(0.901)}};
  EXPECT_TRUE(
      fit_quality_warnings(two_runs(), {param("serving.x", 0, 100)}, {10}, u, rs, {}).empty());
}

TEST(FitQuality, PoorFitPastTenPercent) {
  ParameterUncertainty u;
  u.se = {0.5};
  const std::vector<Residual> rs = {{1, "median_itl_ms", 145, 100, std::log(1.45)}};
  const auto w = fit_quality_warnings(two_runs(), {param("serving.x", 0, 100)}, {10}, u, rs, {});
  ASSERT_EQ(kinds(w), std::vector<std::string>{"poor_fit"});
  EXPECT_EQ(w[0].text,
            "B median_itl_ms is off by +45.0 % after the fit (more than 10 %): the fitted "
            "mechanisms do not produce this run");
}

TEST(FitQuality, ParametersTheRunsDoNotDetermine) {
  ParameterUncertainty u;
  u.se = {30, NAN, 0.01, 0.1};
  const std::vector<FitParameter> ps = {param("serving.a", 0, 100), param("serving.b", 0, 100),
                                        param("serving.c", 0, 100), param("serving.d", 0, 100)};
  // a: se 30 >= value 10; b: no se; c: at the lower end (within 0.1 % of the range: 0.1);
  // d: 99.95 at the upper end.
  const auto w = fit_quality_warnings(two_runs(), ps, {10, 5, 0.05, 99.95}, u, {}, {});
  EXPECT_EQ(kinds(w), (std::vector<std::string>{"uncertain_parameter", "undetermined_parameter",
                                                "at_bound", "at_bound"}));
  EXPECT_EQ(w[0].text,
            "serving.a = 10.0000 +/- 30.0000: the standard error is at least the value; the runs "
            "do not tell it from zero");
}

TEST(FitQuality, LeaveOneOutOutsideAndWide) {
  ParameterUncertainty u;
  u.se = {0.5};
  LeaveOneOut narrow, wide;
  narrow.runs = {0};
  // σ = 0.1: the 90 % interval of the log ratio is ±0.1645; predicted 1.3 × measured is outside.
  narrow.residuals = {{0, "duration", 130, 100, std::log(1.3)}};
  narrow.spread = {LooSpread{0.1, 0.01, 0, 0}};
  wide.runs = {1};
  // σ = 0.5: 1.645 σ = 0.82 > ln 2 = 0.69, wider than a factor 2 either way; the measured value
  // (predicted 0.8 × measured) is inside.
  wide.residuals = {{1, "duration", 80, 100, std::log(0.8)}};
  wide.spread = {LooSpread{0.5, 0.25, 0, 0}};
  const auto w =
      fit_quality_warnings(two_runs(), {param("serving.x", 0, 100)}, {10}, u, {}, {narrow, wide});
  ASSERT_EQ(kinds(w), (std::vector<std::string>{"loo_outside", "loo_wide"}));
  EXPECT_EQ(
      w[0].text.rfind("left out, A duration is off by +30.0 %, outside its 90 % interval [", 0), 0u)
      << w[0].text;
  EXPECT_EQ(w[1].text.rfind("left out, B duration has a 90 % interval of [", 0), 0u) << w[1].text;
}

}  // namespace fit_quality_test
}  // namespace pdsim

// The serving fit (sim/fit): the local Jacobian's identifiability and uncertainty, parameter
// sampling, and a fit that recovers a known parameter from a synthetic measurement (its inputs:
// fit_inputs_test.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fit/fit_starts.hpp"
#include "sim/fit/loo_interval.hpp"
#include "sim/fit/parameter_samples.hpp"
#include "sim/fit/serving_fit.hpp"
#include "tests/unit/synthetic_set.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

using testing::input_error_of;

TEST(LocalJacobian, IdentifiabilityNamesFlatAndConfoundedParameters) {
  Eigen::MatrixXd J(3, 3);
  J << 1, 2, 0,  //
      2, 4, 0,   //
      3, 6, 0;   // a and b move the residuals together; c moves nothing
  const auto p = identifiability_problems(J, {"a", "b", "c"}, {1, 1, 1});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NE(p[0].find("c: no compared metric"), std::string::npos) << p[0];
  EXPECT_NE(p[1].find("a, b: these runs cannot separate them"), std::string::npos) << p[1];
  Eigen::MatrixXd ok(3, 2);
  ok << 1, 0, 0, 1, 1, 1;
  EXPECT_TRUE(identifiability_problems(ok, {"a", "b"}, {1, 1}).empty());
}

TEST(LocalJacobian, CovarianceFromResidualScatter) {
  // r = θ·[1, 1, 2]: JᵀJ = 6; SSE 3 over dof 2 gives s² = 1.5, var = 1.5/6 = 0.25, se = 0.5.
  Eigen::MatrixXd J(3, 1);
  J << 1, 1, 2;
  const ParameterUncertainty u = parameter_uncertainty(J, 3.0);
  EXPECT_EQ(u.dof, 2);
  EXPECT_DOUBLE_EQ(u.s2, 1.5);
  EXPECT_DOUBLE_EQ(u.se[0], 0.5);
  EXPECT_DOUBLE_EQ(u.corr(0, 0), 1.0);
  EXPECT_TRUE(std::isnan(parameter_uncertainty(Eigen::MatrixXd::Ones(1, 1), 1.0).se[0]));  // dof 0
}

TEST(LooInterval, RefittedCovarianceHeldRangeAndScatterAddUp) {
  // Two refitted parameters, J = [[1,0],[0,1],[1,1]], SSE 0.01 over dof 1: s² = 0.01,
  // (JᵀJ)⁻¹ = [[2,-1],[-1,2]]/3, so for g = [1, 1]: g C gᵀ = 0.01·2/3, plus s²: σ² = 0.05/3.
  Eigen::MatrixXd Jo(3, 2), Jl(1, 2);
  Jo << 1, 0, 0, 1, 1, 1;
  Jl << 1, 1;
  const LooSpread a = loo_spread(Jo, 0.01, Jl, {true, true}, {1, 1})[0];
  EXPECT_NEAR(a.sigma, std::sqrt(0.05 / 3), 1e-12);
  EXPECT_NEAR(a.refitted, 0.02 / 3, 1e-12);
  EXPECT_NEAR(a.scatter, 0.01, 1e-12);
  EXPECT_EQ(a.held, 0.0);
  // One refitted, one held: J_F = [1,1,1]ᵀ, J_H = [2,2,2]ᵀ, SSE 0.02 over dof 2 (s² = 0.01),
  // C = 0.01/3; the refitted one follows the held one as dθ_F/dθ_H = −6/3 = −2, so the run left
  // out (g = [1, 3]) moves by 3 + 1·(−2) = 1 per unit of the held parameter, whose range √12 gives
  // variance 1: σ² = 0.01/3 + 1 + 0.01.
  Eigen::MatrixXd Jo2(3, 2), Jl2(2, 2);
  Jo2 << 1, 2, 1, 2, 1, 2;
  Jl2 << 1, 3, 0, 0;
  const auto s = loo_spread(Jo2, 0.02, Jl2, {true, false}, {1, std::sqrt(12.0)});
  EXPECT_NEAR(s[0].sigma, std::sqrt(0.01 / 3 + 1 + 0.01), 1e-12);
  EXPECT_NEAR(s[0].held, 1.0, 1e-12);
  EXPECT_NEAR(s[1].sigma, 0.1, 1e-12);  // a metric no parameter moves: the scatter alone
  // No degree of freedom left on the other runs: unknown, not zero.
  EXPECT_TRUE(std::isnan(loo_spread(Jo.topRows(2), 0.0, Jl, {true, true}, {1, 1})[0].sigma));
}

TEST(LooInterval, ErrorIntervalIsThePredictionTimesExpOfPlusMinusZSigma) {
  // σ = ln 2 / 1.6448536: the 90 % band of the prediction is [predicted / 2, 2 · predicted].
  // Predicted 30 ms against 20 measured: error +50 %, band [15, 60] ms → [−25 %, +200 %].
  LooSpread sp;
  sp.sigma = std::log(2.0) / kZ90;
  const auto band = sp.error_pct_90(30.0, 20.0);
  EXPECT_NEAR(band[0], -25.0, 1e-9);
  EXPECT_NEAR(band[1], 200.0, 1e-9);
  // Inside when |ln(predicted / measured)| ≤ ln 2: 30 vs 20 is ln 1.5, 50 vs 20 is ln 2.5.
  EXPECT_TRUE(sp.inside_90(std::log(1.5)));
  EXPECT_FALSE(sp.inside_90(std::log(2.5)));
  EXPECT_TRUE(sp.inside_90(-std::log(1.9)));
}

// One fitted parameter, serving.decode.host_us_per_iteration = 10 µs in [0, 100] with variance 4,
// and the overlay "t.json" that carries `fit` on profile sglang-0.5-pd.
Json one_parameter_fit() {
  return {{"order", {"serving.decode.host_us_per_iteration"}},
          {"parameters",
           {{"serving.decode.host_us_per_iteration",
             {{"value", 10.0}, {"lower", 0.0}, {"upper", 100.0}}}}},
          {"covariance", {{4.0}}}};
}

ProfileOverlay overlay_with_fit(const Json& fit) {
  return profile_overlay_from_json(
      {{"schema", kProfileOverlaySchema},
       {"name", "t"},
       {"provenance", Json::object()},
       {"profiles",
        {{"serving",
          {{"profile", "sglang-0.5-pd"},
           {"set", {{"decode", {{"host_us_per_iteration", 10.0}}}}}}}}},
       {"fit", fit}},
      "t.json");
}

TEST(ParameterSamples, DrawsFollowTheCovarianceAndStayInRange) {
  const ProfileOverlay o = overlay_with_fit(one_parameter_fit());
  const auto s = sample_overlays(o, 4000, 7);
  double sum = 0, sq = 0;
  for (const auto& x : s) {
    const double v =
        x.doc["profiles"]["serving"]["set"]["decode"]["host_us_per_iteration"].get<double>();
    ASSERT_GE(v, 0.0);
    sum += v;
    sq += v * v;
  }
  const double mean = sum / 4000, sd = std::sqrt(sq / 4000 - mean * mean);
  EXPECT_NEAR(mean, 10.0, 3 * 2.0 / std::sqrt(4000.0));  // 3 standard errors of the mean
  EXPECT_NEAR(sd, 2.0, 0.1);
  EXPECT_EQ(sample_overlays(o, 3, 7)[2].doc.dump(), s[2].doc.dump());  // deterministic in the seed
}

// Issue 31: a hand-edited fit block once crashed --param-samples ("covariance": [] → SIGSEGV) or
// ended as an internal error; each is now an input error naming the field.
TEST(ParameterSamples, MalformedFitBlocksNameTheField) {
  const Json good = one_parameter_fit();
  auto error = [](const Json& fit) {
    const ProfileOverlay o = overlay_with_fit(fit);
    return testing::input_error_of([&] { sample_overlays(o, 2, 1); });
  };
  auto expect = [&](Json fit, const std::string& field) {
    const std::string e = error(fit);
    EXPECT_NE(e.find("t.json"), std::string::npos) << e;
    EXPECT_NE(e.find(field), std::string::npos) << e;
  };
  EXPECT_EQ(error(good), "");
  Json f = good;
  f["covariance"] = Json::array();
  expect(f, "fit.covariance");
  f["covariance"] = {Json::array()};
  expect(f, "fit.covariance[0]");
  f["covariance"] = {{"x"}};
  expect(f, "fit.covariance[0][0]");
  f = good;
  f["order"] = {"serving"};  // no field
  expect(f, "fit.order[0]");
  f["order"] = {"gpu.x"};  // a profile the overlay does not set
  expect(f, "fit.order[0]");
  f["order"] = 5;
  expect(f, "fit.order");
  f = good;
  f["parameters"]["serving.decode.host_us_per_iteration"]["value"] = "ten";
  expect(f, "value");
  f["parameters"]["serving.decode.host_us_per_iteration"]["value"] = 1000.0;  // above upper
  expect(f, "fit.parameters");
  f = good;
  f["parameters"] = Json::object();
  expect(f, "serving.decode.host_us_per_iteration");
}

// A validation set whose one "measured" run is pdsim's own prediction with fixed_us = 80: the fit
// must find 80 again from a start of 0.
std::string synthetic_set(const std::string& dir) {
  return testing::synthetic_set(dir, "synthetic",
                                {"workload.num_prompts=8", "decode.speculative.algorithm=none"},
                                {{"S", {}}});
}

TEST(ServingFit, RecoversAKnownParameterDeterministically) {
  const ValidationSet set = load_validation_set(synthetic_set(::testing::TempDir() + "/synth"));
  ServingFitOptions opt;
  opt.fit = {"fabric.a2a.cpu-proxy.fixed_us=0:300"};
  opt.jobs = 2;
  opt.leave_one_out = false;
  const ServingFitResult r = fit_serving(set, opt);
  ASSERT_TRUE(r.converged) << r.status;
  EXPECT_NEAR(r.theta[0], 80.0, 2.0);
  EXPECT_LT(r.sse, 1e-4);
  // Same inputs, same overlay, byte for byte.
  EXPECT_EQ(fit_serving(set, opt).overlay.doc.dump(), r.overlay.doc.dump());
  EXPECT_EQ(r.overlay.doc["profiles"]["fabric"]["profile"], "efa-p5en");
}

TEST(FitStarts, ProfileValuesThenHaltonPointsInTheRanges) {
  EXPECT_DOUBLE_EQ(halton(1, 2), 0.5);
  EXPECT_DOUBLE_EQ(halton(3, 2), 0.75);
  EXPECT_DOUBLE_EQ(halton(5, 2), 0.625);      // 5 = 101b → 0.101b
  EXPECT_DOUBLE_EQ(halton(4, 3), 4.0 / 9.0);  // 4 = 11 in base 3 → 1/3 + 1/9
  EXPECT_DOUBLE_EQ(halton(0, 7), 0.0);
  FitParameter a, b;
  a.lo = 0, a.hi = 400, a.start = 7;
  b.lo = 0.3, b.hi = 0.9, b.start = 0.8;
  const auto s = fit_starts({a, b}, 4);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], (std::vector<double>{7, 0.8}));
  EXPECT_DOUBLE_EQ(s[1][0], 200);  // 1/2 of [0, 400]
  EXPECT_DOUBLE_EQ(s[1][1], 0.5);  // 0.3 + 1/3 · 0.6
  EXPECT_DOUBLE_EQ(s[2][0], 100);  // 1/4
  EXPECT_DOUBLE_EQ(s[2][1], 0.7);  // 0.3 + 2/3 · 0.6
  EXPECT_DOUBLE_EQ(s[3][0], 300);  // 3/4
  EXPECT_DOUBLE_EQ(s[3][1], 0.3 + 0.6 / 9);
  EXPECT_THROW(fit_starts({a}, 0), std::invalid_argument);
}

TEST(ServingFit, EveryStartIsRecordedAndTheLowestMinimumIsKept) {
  const ValidationSet set = load_validation_set(synthetic_set(::testing::TempDir() + "/synth3"));
  ServingFitOptions opt;
  opt.fit = {"fabric.a2a.cpu-proxy.fixed_us=0:300"};
  opt.jobs = 2;
  opt.starts = 3;  // 0 (the profile's value), then 150 and 75
  opt.leave_one_out = false;
  const ServingFitResult r = fit_serving(set, opt);
  ASSERT_TRUE(r.converged) << r.status;
  ASSERT_EQ(r.minima.size(), 3u);
  EXPECT_EQ(r.starts[1][0], 150.0);
  EXPECT_EQ(r.starts[2][0], 75.0);
  for (const auto& m : r.minima) {
    EXPECT_NEAR(m.theta[0], 80.0, 2.0);  // one basin: every start finds the truth
    EXPECT_GE(m.sse, r.sse);
  }
  EXPECT_EQ(r.sse, r.minima[r.best_start].sse);
  const Json& fit = r.overlay.doc["fit"];
  ASSERT_EQ(fit["starts"].size(), 3u);
  EXPECT_EQ(fit["starts"][1]["start"][0], 150.0);
  EXPECT_EQ(fit["best_start"], r.best_start);
}

TEST(ServingFit, RefusesWhatTheRunsCannotIdentify) {
  const ValidationSet set = load_validation_set(synthetic_set(::testing::TempDir() + "/synth2"));
  ServingFitOptions opt;
  opt.jobs = 2;
  // Both are a constant per all-to-all phase: only their sum shows in the runs.
  opt.fit = {"fabric.a2a.cpu-proxy.fixed_us=0:300", "fabric.a2a.cpu-proxy.latency_us=0:300"};
  std::string m = input_error_of([&] { fit_serving(set, opt); });
  EXPECT_NE(m.find("cannot identify"), std::string::npos) << m;
  EXPECT_NE(m.find("fabric.a2a.cpu-proxy.fixed_us, fabric.a2a.cpu-proxy.latency_us"),
            std::string::npos)
      << m;
  // Host work hidden by the overlap scheduler (no speculation) moves nothing.
  opt.fit = {"serving.decode.host_us_per_iteration=0:1000"};
  m = input_error_of([&] { fit_serving(set, opt); });
  EXPECT_NE(m.find("serving.decode.host_us_per_iteration: no compared metric"), std::string::npos)
      << m;
  opt.fit = {"fabric.a2a.cpu-proxy.bogus=0:1"};
  EXPECT_NE(input_error_of([&] { fit_serving(set, opt); }).find("not a field"), std::string::npos);
  // Serving-profile fields are declared: the range must lie inside the declared one (costs are
  // >= 0), and an unknown field gets the declared number fields listed.
  opt.fit = {"serving.decode.host_us_per_iteration=-5:10"};
  m = input_error_of([&] { fit_serving(set, opt); });
  EXPECT_NE(m.find("--fit: field 'serving.decode.host_us_per_iteration': a range inside the "
                   "field's declared range (in [0, 300000000]), got [-5.0, 10.0]"),
            std::string::npos)
      << m;
  opt.fit = {"serving.decode.host_us=0:10"};
  m = input_error_of([&] { fit_serving(set, opt); });
  EXPECT_NE(m.find("a number field of the serving profile (decode.host_us_per_iteration, "
                   "decode.host_us_per_graph_replay, prefill.host_us_per_chunk)"),
            std::string::npos)
      << m;
  // Collective-profile fields are declared too: the alpha fraction lies in [0.5, 1]; and a fit
  // of one needs runs whose layout crosses nodes with a collective profile (these have none).
  opt.fit = {"collective.estimated_alpha_fraction=0.2:1"};
  m = input_error_of([&] { fit_serving(set, opt); });
  EXPECT_NE(m.find("declared range (in [0.5, 1]), got [0.2, 1.0]"), std::string::npos) << m;
  opt.fit = {"collective.serving_call_us=0:100"};
  m = input_error_of([&] { fit_serving(set, opt); });
  EXPECT_NE(m.find("no run uses a collective profile"), std::string::npos) << m;
}

}  // namespace
}  // namespace pdsim

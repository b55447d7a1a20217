// sim/fit/deployment_spread, envelope, deployment_coordinates and the corpus file: the spread
// between deployments and its leave-one-deployment-out check computed by hand; where a prediction
// stands against a three-run corpus; the coordinates of the shipped reference scenario.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fit/deployment_spread.hpp"
#include "sim/fit/envelope.hpp"
#include "sim/fit/loo_interval.hpp"
#include "sim/fit/shipped_fits.hpp"
#include "sim/scenario/scenario.hpp"
#include "tests/unit/corpus_fixture.hpp"

namespace pdsim {
namespace fit_envelope_test {

using testing::coords;

CorpusRun run(const std::string& name, const Json& changes, std::vector<CorpusPoint> pts,
              std::vector<std::string> fitted_by = {}) {
  return testing::corpus_run(name, changes, std::move(pts), std::move(fitted_by));
}

const MetricSpread& family(const std::vector<MetricSpread>& s, const std::string& name) {
  for (const auto& f : s)
    if (f.family == name) return f;
  throw std::runtime_error("no family " + name);
}

TEST(DeploymentSpread, EachDeploymentWeighsTheSameAndLeaveOneOutIsHonest) {
  const std::vector<CorpusRun> runs = {
      run("A1", {{"model", "a"}}, {{"mean_tpot_ms", 110, 100}}),
      run("A2", {{"model", "a"}}, {{"mean_tpot_ms", 90, 100}}),
      run("B", {{"model", "b"}}, {{"mean_tpot_ms", 120, 100}}),
      // one run's two per-token metrics are one error: the mean of their logs, 0 here
      run("C", {{"model", "c"}}, {{"mean_tpot_ms", 125, 100}, {"median_itl_ms", 80, 100}}),
      // a fitted run says nothing about deployments the fit never saw
      run("F", {{"model", "f"}}, {{"mean_tpot_ms", 300, 100}}, {"overlay"}),
  };
  const auto s = estimate_spreads(runs);
  const MetricSpread& f = family(s, "per-token time");
  const double a = (std::pow(std::log(1.1), 2) + std::pow(std::log(0.9), 2)) / 2;
  const double b = std::pow(std::log(1.2), 2);
  const double c = std::pow((std::log(1.25) + std::log(0.8)) / 2, 2);  // 0: 1.25 × 0.8 = 1
  EXPECT_NEAR(f.tau, std::sqrt((a + b + c) / 3), 1e-12);
  EXPECT_EQ(f.runs, 4);
  ASSERT_EQ(f.groups.size(), 3u);
  EXPECT_EQ(f.groups[0].runs, 2);
  EXPECT_NEAR(f.groups[0].tau_without, std::sqrt((b + c) / 2), 1e-12);  // ln 1.2 / √2 = 0.129
  EXPECT_EQ(f.groups[0].inside_90, 2);  // |ln 1.1|, |ln 0.9| ≤ 1.645 × 0.129 = 0.212
  EXPECT_NEAR(f.groups[1].tau_without, std::sqrt((a + c) / 2), 1e-12);  // 0.0710
  EXPECT_EQ(f.groups[1].inside_90, 0);  // ln 1.2 = 0.182 > 1.645 × 0.0710 = 0.117
  EXPECT_NEAR(f.groups[1].mean_log_error, std::log(1.2), 1e-12);
  // no TTFT anywhere: no estimate
  EXPECT_EQ(family(s, "time to first token").tau, 0);
  EXPECT_TRUE(family(s, "time to first token").groups.empty());
}

TEST(DeploymentSpread, OneDeploymentIsNoEstimate) {
  const auto s = estimate_spreads(
      {run("A1", {}, {{"mean_ttft_ms", 50, 100}}), run("A2", {}, {{"mean_ttft_ms", 200, 100}})});
  const MetricSpread& f = family(s, "time to first token");
  EXPECT_EQ(f.tau, 0);
  ASSERT_EQ(f.groups.size(), 1u);
  EXPECT_NEAR(f.groups[0].rms_log_error, std::log(2.0), 1e-12);
  EXPECT_EQ(f.groups[0].tau_without, 0);
  EXPECT_EQ(f.groups[0].inside_90, 0);
}

CalibrationCorpus three_runs() {
  CalibrationCorpus c;
  c.file = "corpus.json";
  c.runs = {run("X1", {{"concurrency", 2}}, {{"mean_tpot_ms", 110, 100}}),
            run("X2", {{"concurrency", 8}}, {{"mean_tpot_ms", 90, 100}}),
            run("Y", {{"model", "m2"}, {"concurrency", 64}}, {{"mean_tpot_ms", 150, 100}})};
  c.spreads = estimate_spreads(c.runs);
  return c;
}

TEST(Envelope, InsideWhenADeploymentCoversEveryCoordinate) {
  const CalibrationCorpus c = three_runs();
  const Coordinates p = coords({{"concurrency", 4}});
  const Envelope e = locate(p, c, Json());
  EXPECT_TRUE(e.inside);
  EXPECT_EQ(e.nearest, (std::vector<size_t>{0, 1}));
  // inside a deployment no fit used: its own error, RMS of ln 1.1 and ln 0.9
  const Json j = envelope_json(e, p, c, {{"mean_tpot_ms", 20.0}});
  const double sigma = std::sqrt((std::pow(std::log(1.1), 2) + std::pow(std::log(0.9), 2)) / 2);
  EXPECT_NEAR(j["interval_90"]["mean_tpot_ms"]["sigma_log"].get<double>(), sigma, 1e-12);
  EXPECT_NEAR(j["interval_90"]["mean_tpot_ms"]["lo"].get<double>(), 20 * std::exp(-kZ90 * sigma),
              1e-9);
  EXPECT_EQ(j["interval_90"]["mean_tpot_ms"]["runs"], 2);
}

TEST(Envelope, OutsideNamesWhatDiffersAndWidensBySpread) {
  const CalibrationCorpus c = three_runs();
  const Coordinates p = coords({{"concurrency", 16}});
  const Envelope e = locate(p, c, Json());
  EXPECT_FALSE(e.inside);
  ASSERT_EQ(e.gaps.size(), 1u);
  EXPECT_EQ(e.gaps[0].key, "concurrency");
  EXPECT_EQ(e.gaps[0].value, "16");
  EXPECT_EQ(e.gaps[0].measured, "2 to 8");
  const Json j = envelope_json(e, p, c, {{"mean_tpot_ms", 20.0}});
  const double tau = family(c.spreads, "per-token time").tau;
  EXPECT_NEAR(j["interval_90"]["mean_tpot_ms"]["hi"].get<double>(), 20 * std::exp(kZ90 * tau),
              1e-9);
  // a model never measured: the nearest deployment is the first with one difference
  const Envelope m = locate(coords({{"model", "m3"}}), c, Json());
  EXPECT_EQ(m.nearest, (std::vector<size_t>{0, 1}));
  ASSERT_EQ(m.gaps.size(), 1u);
  EXPECT_EQ(m.gaps[0].measured, "m1");
}

TEST(Envelope, AFittedParameterIsCheckedOnItsOwnCoordinatesAgainstItsFitRuns) {
  const CalibrationCorpus c = three_runs();
  const Json log = {
      {"applied",
       {{{"kind", "fabric"}, {"overlay", "o.json"}, {"applied", {{"a2a", {{"x_us", 1.0}}}}}},
        {{"kind", "serving"}, {"overlay", "o.json"}, {"applied", {{"decode", {{"y_us", 2.0}}}}}}}},
      {"overlays",
       {{{"file", "o.json"},
         {"name", "o"},
         {"provenance", {{"runs", {{{"measured", "m/X1"}}}}}}}}}};
  // concurrency 8: inside the corpus (X2) but beyond the fit's one run (X1, concurrency 2); a
  // fabric parameter does not depend on concurrency, a serving one does
  const Envelope e = locate(coords({{"concurrency", 8}}), c, log);
  EXPECT_TRUE(e.inside);
  EXPECT_TRUE(e.nearest_fitted);
  ASSERT_EQ(e.parameters.size(), 2u);
  EXPECT_EQ(e.parameters[0].parameter, "fabric.a2a.x_us");
  EXPECT_EQ(e.parameters[0].overlay, "o");  // by name: a path depends on the checkout
  EXPECT_TRUE(e.parameters[0].gaps.empty());
  EXPECT_EQ(e.parameters[1].parameter, "serving.decode.y_us");
  ASSERT_EQ(e.parameters[1].gaps.size(), 1u);
  EXPECT_EQ(e.parameters[1].gaps[0].key, "concurrency");
  EXPECT_EQ(e.parameters[1].gaps[0].measured, "2");
  // inside a fitted deployment the corpus gives no interval (the fit's own does)
  EXPECT_TRUE(
      envelope_json(e, coords({{"concurrency", 8}}), c, {{"mean_tpot_ms", 20.0}})["interval_90"]
          .empty());
}

// Inside a deployment an applied overlay was fitted to, the interval is the RMS of that fit's
// residuals on the deployment's runs: X1 +0.03 and X2 −0.04 give sqrt((0.03² + 0.04²) / 2) =
// 0.035355; Y's residual is another deployment's, and a TTFT residual another family's.
TEST(Envelope, InsideAFittedDeploymentTheFitsResidualsThereGiveTheInterval) {
  const CalibrationCorpus c = three_runs();
  const Json log = {
      {"applied",
       {{{"kind", "collective"}, {"overlay", "o.json"}, {"applied", {{"call_us", 1.0}}}},
        {{"kind", "serving"}, {"overlay", "o.json"}, {"applied", {{"y_us", 2.0}}}}}},
      {"overlays",
       {{{"file", "o.json"},
         {"name", "o"},
         {"provenance", {{"runs", {{{"measured", "m/X1"}}, {{"measured", "m/X2"}}}}}}}}}};
  const Json fits = {{"o.json",
                      {{"residuals",
                        {{{"run", "X1"}, {"metric", "mean_tpot_ms"}, {"log_ratio", 0.03}},
                         {{"run", "X2"}, {"metric", "mean_tpot_ms"}, {"log_ratio", -0.04}},
                         {{"run", "Y"}, {"metric", "mean_tpot_ms"}, {"log_ratio", 0.5}},
                         {{"run", "X1"}, {"metric", "mean_ttft_ms"}, {"log_ratio", 0.2}}}}}}};
  const Coordinates p = coords({{"concurrency", 4}});
  const Envelope e = locate(p, c, log, &fits);
  EXPECT_TRUE(e.inside);
  EXPECT_TRUE(e.nearest_fitted);
  EXPECT_EQ(e.nearest_residuals.size(), 3u);  // read once, though two sections apply
  const Json iv = envelope_json(e, p, c, {{"mean_tpot_ms", 20.0}})["interval_90"];
  ASSERT_TRUE(iv.contains("mean_tpot_ms"));
  const double sigma = std::sqrt((0.03 * 0.03 + 0.04 * 0.04) / 2);
  EXPECT_NEAR(iv["mean_tpot_ms"]["sigma_log"].get<double>(), sigma, 1e-12);
  EXPECT_EQ(iv["mean_tpot_ms"]["runs"], 2);
  EXPECT_EQ(iv["mean_tpot_ms"]["basis"], "the fit's residuals on this deployment");
  EXPECT_NEAR(iv["mean_tpot_ms"]["lo"].get<double>(), 20.0 * std::exp(-1.6448536269514722 * sigma),
              1e-9);
  // Without the fits' residuals (or with none of the family there): no interval, as before.
  EXPECT_TRUE(
      envelope_json(locate(p, c, log), p, c, {{"mean_tpot_ms", 20.0}})["interval_90"].empty());
}

// A published point kept in its validation set's own file is FILE#RUN in the corpus; the
// overlay's provenance names it by the set file and the run's name.
TEST(Envelope, FitRunsThatArePointsOfTheSetFileAreFound) {
  CalibrationCorpus c = three_runs();
  for (auto& r : c.runs) r.measured_file = "s.json#" + r.name;
  auto log_for = [](const std::string& run_name) {
    return Json{
        {"applied",
         {{{"kind", "collective"}, {"overlay", "o.json"}, {"applied", {{"call_us", 1.0}}}}}},
        {"overlays",
         {{{"file", "o.json"},
           {"name", "o"},
           {"provenance", {{"runs", {{{"measured", "s.json"}, {"name", run_name}}}}}}}}}};
  };
  const Envelope e = locate(coords({{"concurrency", 2}}), c, log_for("X1"));
  ASSERT_EQ(e.parameters.size(), 1u);
  EXPECT_TRUE(e.parameters[0].in_corpus);
  EXPECT_TRUE(e.nearest_fitted);
  // Another run's name in the same file is not this one.
  EXPECT_FALSE(locate(coords({{"concurrency", 2}}), c, log_for("Z")).parameters[0].in_corpus);
}

TEST(CorpusFile, RoundTripsAndNamesTheFieldOfABadValue) {
  CalibrationCorpus c = three_runs();
  c.name = "t";
  c.provenance = {{"kind", "fitted"}};
  const Json j = calibration_corpus_json(c);
  EXPECT_EQ(j["runs"][1]["coordinates"]["concurrency"], 8);
  EXPECT_EQ(coordinates_json(coords()).size(), 15u);
  Json bad = coordinates_json(coords());
  bad["input_len"] = "long";
  try {
    coordinates_from_json(JsonNode::from_json(bad, "c.json"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("input_len"), std::string::npos);
  }
}

TEST(DeploymentCoordinates, TheReferenceScenario) {
  const Deployment d = build_deployment(load_scenario("glm51-2p2d-efa"));
  const Json j = coordinates_json(deployment_coordinates(d));
  EXPECT_EQ(j["model"], "glm-5.1-fp8");
  EXPECT_EQ(j["platform"], "p5en.48xlarge");
  EXPECT_EQ(j["decode.layout"], "TP16 DP16 (DP attention), MoE EP16");
  EXPECT_EQ(j["concurrency"], 1024);  // every prompt: no --max-concurrency
  // 1024 requests over 16 DP ranks is 64, capped at max_running_requests / dp = 256 / 16 = 16
  EXPECT_EQ(j["decode.requests_per_rank"], 16);
}

// The reference pair's two sides: EFA's overlay fitted cpu-proxy's fixed_us and extra_nic_us, so
// of its held parameters only wire_time_factor (1, line rate) is left at the profile's value;
// RoCE applies no fabric overlay, so ibgda's in-serving fixed cost runs at the profile's value,
// the mean 55 µs of its prior [0, 110] from LMSYS's serving figure (170 − 60 µs;
// models/profiles/fabric/roce-cx7.json, calibrate/serving_prior.hpp); EFA's wire time factor has
// no prior. With no all-to-all (pure TP MoE) there is nothing to hold.
TEST(HeldParameters, EachSideNamesWhatNoFitSet) {
  const Deployment efa = build_deployment(load_scenario("glm51-2p2d-efa"));
  const auto a = held_parameters(efa, efa.profiles.value("profile_overlays", Json()));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].parameter, "fabric.a2a.cpu-proxy.wire_time_factor");
  EXPECT_EQ(a[0].value, 1.0);
  EXPECT_FALSE(a[0].prior.has_value());
  const Deployment roce = build_deployment(load_scenario("glm51-2p2d-roce"));
  const auto b = held_parameters(roce, roce.profiles.value("profile_overlays", Json()));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].parameter, "fabric.a2a.ibgda.fixed_us");
  EXPECT_EQ(b[0].value, 55.0);
  ASSERT_TRUE(b[0].prior.has_value());
  EXPECT_EQ(b[0].prior->lower, 0.0);
  EXPECT_EQ(b[0].prior->upper, 110.0);
  // An overlay log naming none of them: all three of cpu-proxy's held parameters, in its
  // declaration order (fixed_us, appended by the base, last).
  const auto c = held_parameters(efa, Json());
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].parameter, "fabric.a2a.cpu-proxy.wire_time_factor");
  EXPECT_EQ(c[1].parameter, "fabric.a2a.cpu-proxy.extra_nic_us");
  EXPECT_EQ(c[2].parameter, "fabric.a2a.cpu-proxy.fixed_us");
  const Deployment tp = build_deployment(load_scenario("dsr1/dsr1-2p2d-p5en-tp"));
  EXPECT_TRUE(held_parameters(tp, Json()).empty());
  // Neither side's held parameters were fitted by a shipped overlay on the same profile.
  for (const auto& h : a) EXPECT_TRUE(h.fitted_elsewhere.empty()) << h.parameter;
  for (const auto& h : b) EXPECT_TRUE(h.fitted_elsewhere.empty()) << h.parameter;
}

// DeepSeek-R1 on UCCL-EP holds cpu-proxy's in-serving terms on efa-p5en, which the GLM-5.1 fit
// (not applied there) chose for that very profile: the held entries carry that overlay's value
// and standard error as its file records them; wire_time_factor, fitted by no overlay, none.
TEST(HeldParameters, AFitOnOtherRunsOfTheSameProfileIsToldNotApplied) {
  const Deployment u = build_deployment(load_scenario("dsr1/dsr1-2p2d-p5en-uccl-dp"));
  const auto h = held_parameters(u, u.profiles.value("profile_overlays", Json()));
  ASSERT_EQ(h.size(), 3u);
  const Json fit =
      JsonNode::load_file(data_root() + "/calibrate/overlays/glm51-2p2d-p5en-20260430.json")
          .raw()["fit"]["parameters"];
  EXPECT_EQ(h[0].parameter, "fabric.a2a.cpu-proxy.wire_time_factor");
  EXPECT_TRUE(h[0].fitted_elsewhere.empty());
  for (size_t i = 1; i < 3; ++i) {
    ASSERT_EQ(h[i].fitted_elsewhere.size(), 1u) << h[i].parameter;
    const auto& f = h[i].fitted_elsewhere[0];
    EXPECT_EQ(f.overlay, "glm51-2p2d-p5en-20260430");
    EXPECT_EQ(f.value, fit[h[i].parameter]["value"].get<double>());
    ASSERT_TRUE(f.std_error.has_value());
    EXPECT_EQ(*f.std_error, fit[h[i].parameter]["std_error"].get<double>());
    EXPECT_EQ(h[i].value, 0.0);  // held at the profile's value: nothing applied
  }
  EXPECT_TRUE(shipped_fits("fabric.a2a.cpu-proxy.fixed_us", "fabric:roce-cx7").empty());
  EXPECT_TRUE(shipped_fits("fabric.a2a.cpu-proxy.no_such_us", "fabric:efa-p5en").empty());
}

}  // namespace fit_envelope_test
}  // namespace pdsim

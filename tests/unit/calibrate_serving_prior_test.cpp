// The prior of a backend's in-serving fixed cost (issue 27, item 6): derived by hand from
// "a2a_serving_excess" rows, read and checked by the backend, left out of microbenchmark
// replays, and drawn by --param-samples where no overlay set the parameter.
#include <gtest/gtest.h>

#include "calibrate/a2a_rows.hpp"
#include "calibrate/serving_prior.hpp"
#include "sim/core/rng.hpp"
#include "sim/fabric/linear_a2a_backend.hpp"
#include "sim/fit/parameter_samples.hpp"
#include "tests/unit/fabric_test_profile.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace serving_prior_test {

JsonNode excess_doc(const Json& rows) {
  const Json m = {{"schema", "pdsim.measurement/1"},
                  {"probe", "a2a_serving_excess"},
                  {"provenance", {{"kind", "published"}, {"source", "blog"}}},
                  {"results", rows}};
  return JsonNode::from_json(m, "excess.json");
}

Json row(const std::string& backend, const std::string& phase, double serving, double unit) {
  return {{"backend", backend}, {"phase", phase}, {"serving_us", serving}, {"unit_test_us", unit}};
}

// LMSYS's figure: 170 µs in serving against 60 µs in DeepEP's test → excess 110 µs, prior
// uniform on [0, 110], value its mean 55. A second row (combine, 90 − 50 = 40) does not widen it:
// the largest excess bounds the term. Another backend's row is not this one's.
TEST(ServingPrior, ExcessBoundsTheTermAndTheValueIsTheMean) {
  const ServingPrior p = serving_fixed_prior(
      "ibgda",
      {excess_doc(Json::array({row("ibgda", "dispatch", 170, 60), row("ibgda", "combine", 90, 50),
                               row("cpu-proxy", "dispatch", 500, 100)}))});
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.lower_us, 0.0);
  EXPECT_EQ(p.upper_us, 110.0);
  EXPECT_EQ(p.value_us, 55.0);
  EXPECT_EQ(p.report["rows"].size(), 2u);
  EXPECT_EQ(p.report["rows"][1]["excess_us"], 40.0);
  EXPECT_NE(p.basis.find("dispatch 170 us in serving vs 60 us in the unit test (blog)"),
            std::string::npos)
      << p.basis;
  EXPECT_FALSE(serving_fixed_prior("batched-proxy",
                                   {excess_doc(Json::array({row("ibgda", "dispatch", 1, 0)}))})
                   .found);
  EXPECT_EQ(serving_prior_backends({excess_doc(
                Json::array({row("ibgda", "dispatch", 1, 0), row("cpu-proxy", "combine", 1, 0),
                             row("ibgda", "combine", 1, 0)}))}),
            (std::vector<std::string>{"cpu-proxy", "ibgda"}));
}

TEST(ServingPrior, BadRowsNameFileAndField) {
  auto error = [](const Json& r) {
    return testing::input_error_of(
        [&] { serving_fixed_prior("ibgda", {excess_doc(Json::array({r}))}); });
  };
  std::string e = error(row("ibgda", "dispatch", 50, 60));  // faster in serving than in its test
  EXPECT_NE(e.find("excess.json"), std::string::npos) << e;
  EXPECT_NE(e.find("results[0].serving_us"), std::string::npos) << e;
  e = error(row("ibgda", "both", 170, 60));
  EXPECT_NE(e.find("results[0].phase"), std::string::npos) << e;
  Json extra = row("ibgda", "dispatch", 170, 60);
  extra["p99_us"] = 1;
  e = error(extra);
  EXPECT_NE(e.find("p99_us"), std::string::npos) << e;
}

// The backend reads profile.a2a[name].priors; a prior names a declared parameter, lies above its
// physical bound and has upper >= lower.
TEST(ServingPrior, BackendReadsAndChecksItsPriors) {
  auto make = [](const Json& priors) {
    FabricProfile p = testing::hand_profile();
    p.file = "fabric.json";
    p.a2a["ibgda"]["fixed_us"] = 55.0;
    p.a2a["ibgda"]["priors"] = priors;
    return A2ABackendRegistry::instance().create("ibgda", "test", "backend", p);
  };
  const auto b = make({{"fixed_us", {{"lower", 0}, {"upper", 110}, {"basis", "LMSYS"}}}});
  const auto& lin = dynamic_cast<const LinearA2ABackend&>(*b);
  const auto& specs = lin.param_specs();
  ASSERT_EQ(lin.priors().size(), specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(lin.priors()[i].has_value(), specs[i].name == "fixed_us") << specs[i].name;
    if (specs[i].name != "fixed_us") continue;
    EXPECT_EQ(lin.priors()[i]->upper, 110.0);
    EXPECT_EQ(lin.priors()[i]->basis, "LMSYS");
    EXPECT_EQ(lin.params()[i], 55.0);
  }
  auto error = [&](const Json& priors) { return testing::input_error_of([&] { make(priors); }); };
  std::string e = error({{"spin_us", {{"lower", 0}, {"upper", 1}, {"basis", "x"}}}});
  EXPECT_NE(e.find("a2a.ibgda.priors.spin_us"), std::string::npos) << e;
  e = error({{"wire_time_factor", {{"lower", 1}, {"upper", 2}, {"basis", "x"}}}});
  EXPECT_NE(e.find("a2a.ibgda.priors.wire_time_factor': a prior is for a held parameter"),
            std::string::npos)
      << e;
  e = error({{"fixed_us", {{"lower", -5}, {"upper", 1}, {"basis", "x"}}}});
  EXPECT_NE(e.find("a2a.ibgda.priors.fixed_us.lower"), std::string::npos) << e;
  e = error({{"fixed_us", {{"lower", 20}, {"upper", 10}, {"basis", "x"}}}});
  EXPECT_NE(e.find("a2a.ibgda.priors.fixed_us.upper"), std::string::npos) << e;
  e = error({{"fixed_us", {{"lower", 0}, {"upper", 10}}}});
  EXPECT_NE(e.find("basis"), std::string::npos) << e;
}

// A microbenchmark runs no serving system: a profile's in-serving fixed cost (here 55 µs) does
// not enter the replay of a DeepEP test row, which `pdsim calibrate check` compares with it.
TEST(ServingPrior, MicrobenchmarkReplayLeavesTheServingCostOut) {
  FabricProfile with = testing::hand_profile();
  with.a2a["ibgda"]["fixed_us"] = 55.0;
  const auto a = A2ABackendRegistry::instance().create("ibgda", "t", "b", testing::hand_profile());
  const auto b = A2ABackendRegistry::instance().create("ibgda", "t", "b", with);
  A2ARow r;
  r.backend = "ibgda";
  r.cfg = testing::ep16_config();
  r.tokens_per_rank = 128;
  r.phase = A2APhase::combine;
  EXPECT_DOUBLE_EQ(simulate_a2a_row(*a, r, 3, 5), simulate_a2a_row(*b, r, 3, 5));
  // In serving it is there: 55 µs more on every phase.
  const Routing one = sample_row_routings(r, 1, 5).front();
  EXPECT_NEAR(b->phase(r.cfg, one, A2APhase::combine).total_us -
                  a->phase(r.cfg, one, A2APhase::combine).total_us,
              55.0, 1e-9);
}

// --param-samples' draws of held parameters: draw k takes one uniform of Rng(seed).fork(k) per
// held parameter in order, prior or not, and maps it onto the prior; none without a prior.
TEST(ServingPrior, PriorDrawsAreUniformOnTheInterval) {
  const std::vector<HeldParameter> held = {
      {"fabric.a2a.ibgda.wire_time_factor", 1.0, std::nullopt, {}},
      {"fabric.a2a.ibgda.fixed_us", 15.0, A2AParamPrior{10, 30, "b"}, {}}};
  const auto o = prior_overlays("roce-cx7", held, 500, 11);
  ASSERT_EQ(o.size(), 500u);
  double sum = 0;
  for (size_t k = 0; k < o.size(); ++k) {
    const Json& fab = o[k].doc["profiles"]["fabric"];
    EXPECT_EQ(fab["profile"], "roce-cx7");
    EXPECT_FALSE(fab["set"]["a2a"]["ibgda"].contains("wire_time_factor"));
    const double v = fab["set"]["a2a"]["ibgda"]["fixed_us"].get<double>();
    Rng rng = Rng(11).fork(k);
    rng.uniform01();  // wire_time_factor's draw, unused
    EXPECT_DOUBLE_EQ(v, 10 + 20 * rng.uniform01());
    ASSERT_GE(v, 10.0);
    ASSERT_LT(v, 30.0);
    sum += v;
  }
  // Mean of U(10, 30) is 20, its sd 20/sqrt(12) = 5.77: within 3 standard errors of 500 draws.
  EXPECT_NEAR(sum / 500, 20.0, 3 * 5.77 / std::sqrt(500.0));
  EXPECT_TRUE(prior_overlays("roce-cx7", {held[0]}, 5, 11).empty());
}

// The RoCE side of the reference pair with no overlay: --param-samples draws only ibgda's
// in-serving fixed cost from its prior [0, 110] µs, and every draw's mean TPOT lies between the
// runs at the prior's two ends (a phase's fixed cost only adds time; common random numbers).
TEST(ServingPrior, IntervalsFromThePriorAloneLieBetweenItsEnds) {
  const std::vector<std::string> none = {"profile_overlays=[]"};
  const Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-roce-quick.json", none);
  const Json iv = prediction_intervals(s, s.seed, 4, 1);
  EXPECT_TRUE(iv["overlays"].empty());
  ASSERT_EQ(iv["priors"].size(), 1u);
  EXPECT_EQ(iv["priors"][0]["parameter"], "fabric.a2a.ibgda.fixed_us");
  EXPECT_EQ(iv["priors"][0]["upper"], 110.0);
  auto tpot_at = [&](double fixed_us) {
    const Json set = {{"a2a", {{"ibgda", {{"fixed_us", fixed_us}}}}}};
    const ProfileOverlay o{"",
                           {{"schema", kProfileOverlaySchema},
                            {"name", "end of the prior"},
                            {"provenance", {{"kind", "test"}}},
                            {"profiles", {{"fabric", {{"profile", "roce-cx7"}, {"set", set}}}}}}};
    return testing::metric(bench_summary(simulate_isolated(build_deployment(s, {o}), s.seed)),
                           "mean_tpot_ms");
  };
  const double lo = tpot_at(0), hi = tpot_at(110);
  ASSERT_EQ(iv["draws"]["mean_tpot_ms"].size(), 4u);
  for (const auto& v : iv["draws"]["mean_tpot_ms"]) {
    EXPECT_GE(v.get<double>(), lo);
    EXPECT_LE(v.get<double>(), hi);
  }
  EXPECT_GT(hi, lo * 1.1);  // the prior moves TPOT: 2 phases x 110 us per layer of every forward
}

}  // namespace serving_prior_test
}  // namespace pdsim

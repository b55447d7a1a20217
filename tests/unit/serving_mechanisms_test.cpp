// The mechanisms the measured runs call for (issue: meet the real cluster), each with a
// hand-computed value: the in-serving fixed cost of an all-to-all phase, the CPU proxy's signals
// and extra NICs, the serving stack's host work per iteration and graph replay, the EAGLE
// iteration's passes, per-chunk prefill host work, acceptance from its profile, profile overlays.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/flow_tracker.hpp"
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "tests/unit/fabric_test_profile.hpp"

namespace pdsim {
namespace {

using testing::ep16_config;
using testing::hand_profile;

std::unique_ptr<A2ABackend> make(const std::string& name, const FabricProfile& p) {
  return A2ABackendRegistry::instance().create(name, "test", "backend", p);
}

Routing no_tokens() {
  Routing r;
  r.ranks = 16;
  r.copies.assign(256, 0);
  return r;
}

TEST(ServingMechanisms, CpuProxyFixedCostSignalsAndExtraNic) {
  FabricProfile p = hand_profile();
  p.a2a["cpu-proxy"]["fixed_us"] = 100.0;
  p.a2a["cpu-proxy"]["extra_nic_us"] = 30.0;
  A2AConfig c = ep16_config();  // 2 NICs per GPU
  // No token at all (1-8 tokens per rank are nearly this): the proxy still posts 128 signals,
  // 128/4 × (0.8 + 0.125) = 29.6; fixed = latency 50 + fifo 3 + fixed 100 + nic 30 × (2 − 1).
  A2APhaseTime d = make("cpu-proxy", p)->phase(c, no_tokens(), A2APhase::dispatch);
  EXPECT_NEAR(d.total_us, 50 + 3 + 100 + 30 + 29.6, 1e-9);
  EXPECT_DOUBLE_EQ(d.terms_us.at("fixed_us"), 100);
  EXPECT_DOUBLE_EQ(d.terms_us.at("nic_us"), 30);
  EXPECT_NEAR(d.terms_us.at("proxy_us"), 29.6, 1e-9);
  c.nics_per_gpu = 1;  // one NIC per GPU: no extra-NIC cost
  A2APhaseTime one = make("cpu-proxy", p)->phase(c, no_tokens(), A2APhase::combine);
  EXPECT_NEAR(one.total_us, 50 + 3 + 100 + 29.6, 1e-9);
  EXPECT_DOUBLE_EQ(one.terms_us.at("nic_us"), 0);
  // EP8 on one node: no signal leaves the node, so the proxy has nothing to post.
  c.ep_ranks = 8;
  Routing r8;
  r8.ranks = 8;
  r8.copies.assign(64, 0);
  EXPECT_NEAR(make("cpu-proxy", p)->phase(c, r8, A2APhase::dispatch).total_us, 50 + 3 + 100, 1e-9);
}

TEST(ServingMechanisms, FixedCostIsPartOfEveryBackend) {
  FabricProfile p = hand_profile();
  p.a2a["ibgda"]["fixed_us"] = 40.0;
  const A2APhaseTime base =
      make("ibgda", hand_profile())->phase(ep16_config(), no_tokens(), A2APhase::combine);
  const A2APhaseTime with = make("ibgda", p)->phase(ep16_config(), no_tokens(), A2APhase::combine);
  EXPECT_NEAR(with.total_us - base.total_us, 40.0, 1e-9);
  EXPECT_DOUBLE_EQ(base.terms_us.at("fixed_us"), 0.0);  // absent from the profile: 0
}

// The reference deployment without its fitted overlay: each mechanism alone.
Deployment reference(std::vector<std::string> sets) {
  sets.insert(sets.begin(), "profile_overlays=[]");
  return build_deployment(load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json", sets));
}

IterationTiming one_iteration(const Deployment& d) {
  DecodeIterationTimer timer(d, 1);
  std::vector<RankState> ranks(16);
  ranks[0].contexts = {60000};
  ranks[1].contexts = {60000};
  const FlowTracker none;
  Rng rng(1);
  return timer.time(IterationContext{0, ranks, none}, 0, rng);
}

TEST(ServingMechanisms, HostWorkExposedWithoutTheOverlapScheduler) {
  // A what-if serving profile: 500 us per iteration, 100 us per graph replay.
  const std::string dir = ::testing::TempDir();
  Json prof =
      JsonNode::load_file(data_root() + "/models/profiles/serving/sglang-0.5-pd.json").raw();
  prof["decode"]["host_us_per_iteration"] = 500.0;
  prof["decode"]["host_us_per_graph_replay"] = 100.0;
  std::ofstream(dir + "/host.json") << prof.dump();
  const std::string sp = "serving_profile=" + dir + "/host.json";
  // EAGLE (SGLang 0.5 turns the overlap scheduler off): 500 + 3 replays × 100 = 800, all exposed.
  EXPECT_DOUBLE_EQ(one_iteration(reference({sp})).terms.host_us, 800.0);
  // Without speculation the overlap scheduler hides 500 + 100 behind a ~30 ms forward.
  EXPECT_DOUBLE_EQ(
      one_iteration(reference({sp, "decode.speculative.algorithm=none"})).terms.host_us, 0.0);
  prof["decode"]["overlap_scheduler"] = "off";
  std::ofstream(dir + "/host-off.json") << prof.dump();
  EXPECT_DOUBLE_EQ(one_iteration(reference({"serving_profile=" + dir + "/host-off.json",
                                            "decode.speculative.algorithm=none"}))
                       .terms.host_us,
                   600.0);
}

TEST(ServingMechanisms, EagleIterationRunsNumStepsMinusOneDraftForwards) {
  const Deployment d = reference({});
  EXPECT_EQ(d.passes.draft_steps, 2);  // num_steps 3: the draft-extend made the first draft token
  EXPECT_EQ(d.passes.graph_replays, 3);
  DecodeIterationTimer timer(d, 1);
  std::vector<RankState> ranks(16);
  ranks[0].contexts = {60000};
  const FlowTracker none;
  Rng rng(1);
  timer.time(IterationContext{0, ranks, none}, 0, rng);
  // Phase pairs: 75 MoE layers of the verify forward + 2 draft steps + 1 draft-extend.
  EXPECT_EQ(timer.stats().at("a2a_phases").get<long>(), 2L * (75 + 2 + 1));
}

TEST(ServingMechanisms, PrefillHostWorkPerChunkAndStage) {
  const std::string dir = ::testing::TempDir();
  Json prof =
      JsonNode::load_file(data_root() + "/models/profiles/serving/sglang-0.5-pd.json").raw();
  prof["prefill"]["host_us_per_chunk"] = 1234.0;
  std::ofstream(dir + "/prefill.json") << prof.dump();
  const Deployment d = reference({"serving_profile=" + dir + "/prefill.json"});
  PrefillChunkTimer t(d);
  const ChunkCost c = t.time(1, {PrefillSegment{0, 16384}});
  EXPECT_DOUBLE_EQ(c.host_us, 1234.0);
  EXPECT_DOUBLE_EQ(c.total_us(), c.compute_us + c.cp_exchange_us + c.a2a_us + 1234.0);
}

TEST(ServingMechanisms, AcceptanceComesFromTheModelsProfileUnlessOverridden) {
  EXPECT_DOUBLE_EQ(reference({}).accept_prob, 0.832);  // glm-5.1-fp8, dataset random
  EXPECT_DOUBLE_EQ(reference({"decode.speculative.acceptance.accept_prob=0.6"}).accept_prob, 0.6);
  EXPECT_THROW(reference({"decode.speculative.acceptance.profile=no-such-model"}), InputError);
}

ProfileOverlay overlay(const std::string& kind, const std::string& profile, Json set) {
  return profile_overlay_from_json({{"schema", kProfileOverlaySchema},
                                    {"name", "t"},
                                    {"provenance", Json::object()},
                                    {"profiles", {{kind, {{"profile", profile}, {"set", set}}}}}},
                                   "t.json");
}

TEST(ServingMechanisms, OverlaysApplyOnlyToTheProfileTheyWereFittedOn) {
  const Scenario efa =
      load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json", {"profile_overlays=[]"});
  const Scenario roce =
      load_scenario(data_root() + "/scenarios/glm51-2p2d-roce.json", {"profile_overlays=[]"});
  const auto o = overlay("fabric", "efa-p5en", {{"a2a", {{"cpu-proxy", {{"fixed_us", 77.0}}}}}});
  EXPECT_EQ(build_deployment(efa, {o}).fabric.a2a["cpu-proxy"]["fixed_us"], 77.0);
  const Deployment r = build_deployment(roce, {o});  // skipped: RoCE's profile is roce-cx7
  EXPECT_FALSE(r.fabric.a2a["ibgda"].contains("fixed_us") &&
               r.fabric.a2a["ibgda"]["fixed_us"] == 77.0);
  const Json applied = r.profiles["profile_overlays"]["applied"];
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_NE(applied[0]["skipped"].get<std::string>().find("fitted on profile 'efa-p5en'"),
            std::string::npos);
  // Serving sections transfer across fabrics (both use sglang-0.5-pd).
  const auto s =
      overlay("serving", "sglang-0.5-pd", {{"decode", {{"host_us_per_iteration", 900.0}}}});
  EXPECT_DOUBLE_EQ(build_deployment(roce, {s}).serving.decode.host_us_per_iteration, 900.0);
  // A field the profile does not have, or a value it rejects, is an input error naming it.
  try {
    build_deployment(efa, {overlay("serving", "sglang-0.5-pd", {{"decode", {{"bogus", 1.0}}}})});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("profiles.serving.set.decode.bogus"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(build_deployment(efa, {overlay("serving", "sglang-0.5-pd",
                                              {{"decode", {{"host_us_per_iteration", -1.0}}}})}),
               InputError);
}

}  // namespace
}  // namespace pdsim

// The serving simulation's registered families (router, admission, fidelity, tail mechanisms)
// and the decode passes, with hand-computed expectations.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/flow_tracker.hpp"
#include "sim/serve/cost/acceptance.hpp"
#include "sim/serve/cost/decode_passes.hpp"
#include "sim/serve/cost/fabric_fidelity.hpp"
#include "sim/serve/policies/admission_policy.hpp"
#include "sim/serve/policies/router_policy.hpp"

namespace pdsim {
namespace {

std::vector<Request> on_ranks(const std::vector<int>& ranks) {
  std::vector<Request> out(ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    out[i].spec.id = static_cast<int>(i);
    out[i].rec.decode_rank = ranks[i];
  }
  return out;
}

TEST(RouterPolicy, RoundRobinCyclesPrefillInstancesAndDecodeRankPairs) {
  auto r = RouterPolicyRegistry::instance().create("round-robin", "s.json", "router.policy",
                                                   RouterShape{2, 2, 3});
  const Request q;
  // Prefill 0,1,0,...; (decode instance, rank) over the 6 pairs instance-major, then again.
  const int want[7][3] = {{0, 0, 0}, {1, 0, 1}, {0, 0, 2}, {1, 1, 0},
                          {0, 1, 1}, {1, 1, 2}, {0, 0, 0}};
  for (const auto& w : want) {
    const Route got = r->route(q);
    EXPECT_EQ(got.prefill_instance, w[0]);
    EXPECT_EQ(got.decode_instance, w[1]);
    EXPECT_EQ(got.decode_rank, w[2]);
  }
}

TEST(RouterPolicy, BootstrapRoomTakesTheDecodeRankFromTheRoom) {
  auto r = RouterPolicyRegistry::instance().create("bootstrap-room", "s.json", "router.policy",
                                                   RouterShape{2, 2, 16});
  // Instances in turn; the rank is room % 16, whatever the order (two rooms on rank 5).
  const uint64_t rooms[4] = {5, 16, 33, 0xFFFFFFFFFFFFFFF5ull};  // the last: 2^64 - 11 ≡ 5
  const int want[4][3] = {{0, 0, 5}, {1, 1, 0}, {0, 0, 1}, {1, 1, 5}};
  for (int i = 0; i < 4; ++i) {
    Request q;
    q.bootstrap_room = rooms[i];
    const Route got = r->route(q);
    EXPECT_EQ(got.prefill_instance, want[i][0]);
    EXPECT_EQ(got.decode_instance, want[i][1]);
    EXPECT_EQ(got.decode_rank, want[i][2]);
  }
}

TEST(AdmissionPolicy, AllArrivedTakesEveryoneInOrder) {
  auto a = AdmissionPolicyRegistry::instance().create(admission_policy_name(true), "s", "f", 4);
  const auto reqs = on_ranks({0, 0, 1});
  std::vector<int> arrived = {2, 0, 1};
  EXPECT_EQ(a->admit(arrived, reqs), (std::vector<int>{2, 0, 1}));
  EXPECT_TRUE(arrived.empty());
}

TEST(AdmissionPolicy, OnePerRankDefersLaterArrivalsOnTheSameRank) {
  auto a = AdmissionPolicyRegistry::instance().create(admission_policy_name(false), "s", "f", 3);
  const auto reqs = on_ranks({0, 1, 0, 2, 1});
  std::vector<int> arrived = {0, 1, 2, 3, 4};
  // Ranks 0, 1, 0, 2, 1: requests 2 and 4 find their rank taken this iteration.
  EXPECT_EQ(a->admit(arrived, reqs), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(arrived, (std::vector<int>{2, 4}));
  EXPECT_EQ(a->admit(arrived, reqs), (std::vector<int>{2, 4}));  // next boundary: both join
  EXPECT_TRUE(arrived.empty());
}

TEST(Registries, FamiliesListTheirMembersByName) {
  EXPECT_EQ(FabricFidelityRegistry::instance().names(), "analytic, packet");
  EXPECT_EQ(RouterPolicyRegistry::instance().names(), "bootstrap-room, round-robin");
  EXPECT_EQ(AdmissionPolicyRegistry::instance().names(), "all-arrived, one-per-rank");
  EXPECT_EQ(mechanism_names(),
            (std::vector<std::string>{"admission_work", "batch_jump", "cuda_graph_miss",
                                      "dp_imbalance", "expert_imbalance", "fabric_background",
                                      "gc_pause", "link_errors", "path_flap", "scheduler_hiccup"}));
  EXPECT_EQ(mechanism_id("dp_imbalance"), 3u);
  EXPECT_THROW(mechanism_id("pfc_storm"), std::logic_error);
  MechanismTerms m;
  m["fabric_background"] = 7.5;
  EXPECT_EQ(m[5], 7.5);
  EXPECT_EQ(m.named().at("fabric_background"), 7.5);
  EXPECT_EQ(m.named().at("batch_jump"), 0.0);
}

TEST(Scenario, FidelityAndRouterNamesComeFromTheirRegistries) {
  const std::string f = data_root() + "/scenarios/glm51-2p2d-efa.json";
  try {
    load_scenario(f, {"fabric.fidelity=flow"});
    FAIL() << "accepted an unregistered fidelity";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "field 'fabric.fidelity': expected one of analytic, packet, got \"flow\""),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(load_scenario(f, {"router.policy=random"}), InputError);
}

TEST(DecodePasses, ReadOnceFromTheSpeculativeSection) {
  SpeculativeConfig none;
  const DecodePasses p = decode_passes(none);
  EXPECT_FALSE(p.speculative);
  EXPECT_EQ(p.draft_steps, 0);
  EXPECT_EQ(p.query_tokens, 1);
  EXPECT_EQ(p.forwards(), 1);
  SpeculativeConfig eagle;
  eagle.algorithm = "eagle";
  eagle.num_steps = 3;
  eagle.num_draft_tokens = 4;
  const DecodePasses e = decode_passes(eagle);
  EXPECT_TRUE(e.speculative);
  EXPECT_EQ(e.draft_steps, 2);  // SGLang's draft graph runs num_steps − 1 forwards
  EXPECT_EQ(e.query_tokens, 4);
  EXPECT_EQ(e.graph_replays, 3);  // draft, verify, draft-extend
  EXPECT_EQ(e.forwards(), 4);     // 2 draft steps + verify + draft-extend
}

TEST(Acceptance, WithoutVarianceChunksCarryTheExpectedCount) {
  SpeculativeConfig c;
  c.algorithm = "eagle";
  c.num_steps = 3;
  c.num_draft_tokens = 4;
  // p = 0.5: E[k] = 1 + 0.5 + 0.25 + 0.125 = 1.875 (exact in binary)
  const AcceptanceModel a(c, 0.5, /*variance=*/false);
  Rng rng(1);
  double carry = 0;
  // Carry 1.875 → 1 (0.875), 2.75 → 2 (0.75), 2.625 → 2 (0.625), 2.5 → 2 (0.5), 2.375 → 2.
  for (int want : {1, 2, 2, 2, 2}) EXPECT_EQ(a.chunk_tokens(rng, carry), want);
  EXPECT_EQ(carry, 0.375);
}

TEST(DecodeIterationTimer, EagerLaunchWhenTheBatchIsNotCaptured) {
  Deployment d = build_deployment(load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json",
                                                {"decode.cuda_graph_max_bs=2"}));
  DecodeIterationTimer timer(d, 1);
  EXPECT_EQ(timer.cuda_graph_bs(), (std::vector<int>{1, 2}));  // speculative capture list ≤ 2
  const FlowTracker none;
  Rng rng(1);
  std::vector<RankState> ranks(16);
  ranks[0].contexts = {1000, 1000, 1000};  // 3 requests on one rank: above the capture list
  const IterationTiming t = timer.time(IterationContext{0, ranks, none}, 0, rng);
  EXPECT_FALSE(t.cuda_graph);
  // EAGLE: 4 forwards, the 3 draft-side ones one layer each of 78: launch × (1 + 3/78).
  const double share = 1.0 + 3.0 / 78.0;
  const double eager = d.compute->decode_launch_overhead_us(false),
               graph = d.compute->decode_launch_overhead_us(true);
  EXPECT_DOUBLE_EQ(t.terms.launch_us, eager * share);
  EXPECT_DOUBLE_EQ(t.mech["cuda_graph_miss"], (eager - graph) * share);
  ranks[0].contexts = {1000, 1000};
  ranks[0].version = 1;
  const IterationTiming g = timer.time(IterationContext{0, ranks, none}, 0, rng);
  EXPECT_TRUE(g.cuda_graph);
  EXPECT_DOUBLE_EQ(g.terms.launch_us, graph * share);
  EXPECT_EQ(g.mech["cuda_graph_miss"], 0.0);
}

}  // namespace
}  // namespace pdsim

// SGLang layouts in the serving cost model: the collectives' cost (NVLink ring, the collective
// profile across nodes, all-gather as half an all-reduce), TP-attention and no-all-to-all decode
// deployments, pure-TP experts, CUDA-graph padding, each against hand-computed values.
#include <gtest/gtest.h>

#include <limits>

#include "models/cuda_graph_capture.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/flow_tracker.hpp"
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/cost/collective_cost.hpp"
#include "sim/serve/cost/decode_cost.hpp"
#include "tests/unit/collective_test_profile.hpp"
#include "tests/unit/fabric_test_profile.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace serve_layouts_test {

std::string dsr1(const std::string& config) {
  return data_root() + "/scenarios/dsr1/dsr1-2p2d-p5en-" + config + ".json";
}

// One all_reduce curve over 16 ranks on 2 nodes: 100 µs + bus bytes / 200 GB/s, 10 % RMS error.
CollectiveProfile one_regime() {
  CollectiveRegime r;
  r.up_to_bytes = std::numeric_limits<double>::infinity();
  r.alpha_us = 100;
  r.busbw_GBps = 200;
  r.rms_rel_error = 0.1;
  return testing::all_reduce_16x2({r});
}

const OpCost& op_named(const StepCost& c, const std::string& name) {
  for (const auto& op : c.ops)
    if (name == op.name) return op;
  throw std::runtime_error("no op " + name);
}

TEST(CollectiveCost, NvlinkRingInsideOneNode) {
  const FabricProfile f = testing::hand_profile();  // 400 GB/s bus, α 2 µs
  CollectiveCost c(f, nullptr, 8);
  // All-gather of 32 MB over 8 GPUs: 7 steps of 2 µs + 7 × 4 MB / 400 GB/s = 14 + 70 µs; an
  // all-reduce is a reduce-scatter and an all-gather: 168 µs.
  EXPECT_NEAR(c.op_us({"lm_head", "", "all_gather", "tp", 8, 32e6, 1}), 84.0, 1e-9);
  EXPECT_NEAR(c.op_us({"mlp", "moe", "all_reduce", "tp", 8, 32e6, 1}), 168.0, 1e-9);
  EXPECT_EQ(c.op_us({"mlp", "moe", "all_reduce", "tp", 1, 32e6, 1}), 0.0);
  EXPECT_EQ(c.op_us({"mlp", "moe", "all_to_all", "ep", 8, 32e6, 1}), 0.0);
  // Across nodes without a profile: refused, not guessed.
  EXPECT_THROW(c.op_us({"mlp", "moe", "all_reduce", "tp", 16, 1e6, 1}), InfeasibleError);
}

TEST(CollectiveCost, AcrossNodesFromTheProfileAllGatherAsHalfAnAllReduce) {
  const FabricProfile f = testing::hand_profile();
  const CollectiveProfile p = one_regime();
  CollectiveCost c(f, &p, 8);
  // 1 MB all-reduce over 16: bus bytes 2 · 15/16 · 1e6 = 1.875e6 at 200e3 B/µs = 9.375 µs.
  EXPECT_NEAR(c.op_us({"mlp", "moe", "all_reduce", "tp", 16, 1e6, 1}), 109.375, 1e-9);
  EXPECT_NEAR(c.op_us({"lm_head", "", "all_gather", "tp", 16, 1e6, 1}), 54.6875, 1e-9);
  ForwardComms fc;
  fc.ops = {{"mlp", "moe", "all_reduce", "tp", 16, 1e6, 3},
            {"mlp", "moe", "all_to_all", "ep", 16, 1e6, 5}};
  EXPECT_NEAR(c.forward_us(fc), 3 * 109.375, 1e-9);
  const Json s = c.stats();
  EXPECT_EQ(s.at("estimated_from_all_reduce"), Json::array({"all_gather"}));
  EXPECT_EQ(s.at("outside_measured_calls"), 0);
  EXPECT_DOUBLE_EQ(s.at("profile_rms_rel_error").get<double>(), 0.1);  // every call 10 %
  // The rule itself (pdsim layout prints the same): an all_reduce is its curve, an all_gather
  // without one half of it; an op that is no collective is refused.
  const CollectiveEstimate ar = estimate_collective(p, "all_reduce", 1e6, 16, 2);
  EXPECT_FALSE(ar.from_all_reduce);
  EXPECT_NEAR(ar.prediction.time_us, 109.375, 1e-9);
  const CollectiveEstimate rs = estimate_collective(p, "reduce_scatter", 1e6, 16, 2);
  EXPECT_TRUE(rs.from_all_reduce);
  EXPECT_NEAR(rs.prediction.time_us, 54.6875, 1e-9);
  EXPECT_THROW(estimate_collective(p, "broadcast", 1e6, 16, 2), InputError);
}

// The two serving terms of a collective profile (0.5 and 0 by default, above). With the whole
// alpha kept, a 1 MB all-gather over 16 ranks is 100 + 9.375 / 2 = 104.6875 µs and its busbw
// 0.9375e6 B / 104.6875 µs; inside a served forward every cross-node call adds serving_call_us
// (an all-reduce 109.375 + 40), a call inside one node does not; stats() names both terms.
TEST(CollectiveCost, ServingTermsOfTheProfile) {
  const FabricProfile f = testing::hand_profile();
  CollectiveProfile p = one_regime();
  p.estimated_alpha_fraction = 1.0;
  p.serving_call_us = 40;
  const CollectiveEstimate ag = estimate_collective(p, "all_gather", 1e6, 16, 2);
  EXPECT_NEAR(ag.prediction.time_us, 104.6875, 1e-9);
  EXPECT_NEAR(ag.prediction.alpha_us, 100.0, 1e-9);
  EXPECT_NEAR(ag.prediction.busbw_GBps, 0.9375e6 / 104.6875e3, 1e-12);
  // nccl-tests' figure itself carries no serving term.
  EXPECT_NEAR(predict_collective(p, "all_reduce", 1e6, 16, 2).time_us, 109.375, 1e-9);
  CollectiveCost c(f, &p, 8);
  EXPECT_NEAR(c.op_us({"mlp", "moe", "all_reduce", "tp", 16, 1e6, 1}), 149.375, 1e-9);
  EXPECT_NEAR(c.op_us({"lm_head", "", "all_gather", "tp", 16, 1e6, 1}), 144.6875, 1e-9);
  EXPECT_NEAR(c.op_us({"lm_head", "", "all_gather", "tp", 8, 32e6, 1}), 84.0, 1e-9);
  const Json s = c.stats();
  EXPECT_DOUBLE_EQ(s.at("serving_call_us").get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(s.at("estimated_alpha_fraction").get<double>(), 1.0);
}

TEST(LayoutDeployment, TpAttentionAcrossNodesWithoutAllToAll) {
  const Deployment d = build_deployment(load_scenario(dsr1("baseline"), {}));
  EXPECT_EQ(d.decode_ranks, 1);  // one attention group of 16 GPUs
  EXPECT_EQ(d.decode_layout.attn_tp, 16);
  EXPECT_FALSE(d.decode_layout.moe_a2a);
  EXPECT_EQ(d.a2a.ep_ranks, 16);
  EXPECT_EQ(d.max_requests_per_rank, 256);  // no DeepEP buffer bound without DeepEP
  ASSERT_TRUE(d.collective);
  const Deployment tp = build_deployment(load_scenario(dsr1("tp"), {}));
  EXPECT_EQ(tp.a2a.ep_ranks, 1);
  EXPECT_EQ(tp.decode_layout.moe_tp, 16);
}

TEST(LayoutDeployment, WhatCannotRunIsRefusedByField) {
  auto message = [](const std::vector<std::string>& sets) -> std::string {
    try {
      build_deployment(load_scenario(dsr1("baseline"), sets));
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  std::string m = message({"fabric.collective_profile="});
  EXPECT_NE(m.find("field 'fabric.collective_profile': a collective profile"), std::string::npos)
      << m;
  m = message({"decode.dp=8", "decode.dp_attention=true", "decode.enable_dp_lm_head=true"});
  EXPECT_NE(m.find("field 'decode.dp': dp = tp (16) with DP attention"), std::string::npos) << m;
  m = message({"prefill.moe_a2a_backend=deepep", "fabric.a2a_backend=batched-proxy"});
  EXPECT_NE(m.find("ep 16 spans nodes with the DeepEP backend; backend 'batched-proxy' of fabric "
                   "profile 'efa-p5en' has no normal-mode rates across nodes"),
            std::string::npos)
      << m;
  // DeepEP over NVSHMEM's libfabric proxy has published EP16 normal-mode rates: it runs.
  const Deployment d = build_deployment(load_scenario(
      dsr1("baseline"), {"prefill.moe_a2a_backend=deepep", "fabric.a2a_backend=nvshmem-proxy"}));
  ASSERT_TRUE(d.prefill_normal_rdma.has_value());
  EXPECT_EQ(d.prefill_normal_rdma->ranks, 16);
  EXPECT_DOUBLE_EQ(d.prefill_normal_rdma->dispatch_GBps, 54.98);
  m = message({"fabric.fidelity=packet"});
  EXPECT_NE(m.find("field 'fabric.fidelity': analytic (the packet engine simulates the decode "
                   "all-to-all"),
            std::string::npos)
      << m;
  // SGLang's own rule, on the scenario's field.
  m = message({"decode.dp=2"});
  EXPECT_NE(m.find("field 'decode.dp': 1 across nodes without --enable-dp-attention "
                   "(check_server_args"),
            std::string::npos)
      << m;
}

// Each role its own DeepEP mechanism: the prefill's normal-mode rates across nodes come from
// prefill.a2a_backend's block of the fabric profile (efa-p5en: nvshmem-proxy 54.98 / 58.48 GB/s,
// cpu-proxy 48.93 / 9.17 GB/s), the decode's backend from fabric.a2a_backend.
TEST(LayoutDeployment, PrefillRunsItsOwnAllToAllBackend) {
  const Deployment same = build_deployment(load_scenario(dsr1("deepep")));
  ASSERT_TRUE(same.prefill_normal_rdma);
  EXPECT_DOUBLE_EQ(same.prefill_normal_rdma->dispatch_GBps, 54.98);
  const Deployment split =
      build_deployment(load_scenario(dsr1("deepep"), {"prefill.a2a_backend=cpu-proxy"}));
  ASSERT_TRUE(split.prefill_normal_rdma);
  EXPECT_NEAR(split.prefill_normal_rdma->dispatch_GBps, 48.93, 0.01);
  EXPECT_NEAR(split.prefill_normal_rdma->combine_GBps, 9.17, 0.01);
  EXPECT_EQ(split.a2a_backend->name(), "nvshmem-proxy");  // the decode keeps the fabric's
  const std::string e = testing::input_error_of(
      [] { build_deployment(load_scenario(dsr1("deepep"), {"prefill.a2a_backend=deepep"})); });
  EXPECT_NE(e.find("prefill.a2a_backend"), std::string::npos) << e;
  // A backend without normal-mode rates across nodes cannot carry EP16 prefill.
  EXPECT_THROW(
      build_deployment(load_scenario(dsr1("deepep"), {"prefill.a2a_backend=batched-proxy"})),
      InfeasibleError);
}

// DP attention in prefill (SGLang --enable-dp-attention on the prefill role): a chunk of sixteen
// 1024-token requests, one per DP group of one GPU.
std::vector<PrefillSegment> sixteen_1k() {
  return std::vector<PrefillSegment>(16, {0, 1024});
}

TEST(LayoutDeployment, DpAttentionPrefillHasNoAttentionCollectives) {
  const Deployment dp = build_deployment(load_scenario(dsr1("deepep-dp")));
  EXPECT_EQ(dp.prefill_layout.attn_dp, 16);
  EXPECT_EQ(dp.prefill_layout.attn_tp, 1);
  const Deployment tp = build_deployment(load_scenario(dsr1("deepep")));
  PrefillChunkTimer a(dp), b(tp);
  const ChunkCost with_dp = a.time(0, sixteen_1k()), without = b.time(0, sixteen_1k());
  // DeepEP carries the MoE tokens; attention and the dense layers stay inside each GPU: no
  // collective at all. Without DP attention, TP16 all-reduces every layer across the two nodes.
  EXPECT_EQ(with_dp.collective_us, 0.0);
  EXPECT_GT(without.collective_us, 0.0);
  // Each rank dispatches its own 1024 tokens either way (16384 / 16).
  EXPECT_DOUBLE_EQ(with_dp.a2a_us, without.a2a_us);
  // Replicated attention weights on 1/16 of the tokens do the same head work as TP16 on all of
  // them, without TP's replicated latent projections: never more compute.
  EXPECT_LE(with_dp.compute_us, without.compute_us);
  EXPECT_EQ(with_dp.cp_exchange_us, 0.0);  // no context parallelism: no KV exchange
}

TEST(LayoutDeployment, DpAttentionPrefillRanksRunTogetherAtTheBusiestRanksPace) {
  // Each DP rank prefills its own requests; the ranks run one forward together. One 1024-token
  // request per rank is the balanced chunk itself: the same cost as without ranks, term by term.
  for (const char* config : {"deepep-dp", "baseline-dp"}) {
    SCOPED_TRACE(config);
    const Deployment d = build_deployment(load_scenario(dsr1(config)));
    PrefillChunkTimer t(d);
    std::vector<int> one_each(16), all_on_0(16, 0);
    for (int r = 0; r < 16; ++r) one_each[static_cast<size_t>(r)] = r;
    const ChunkCost even = t.time(0, sixteen_1k()), ranked = t.time(0, sixteen_1k(), one_each);
    EXPECT_DOUBLE_EQ(ranked.compute_us, even.compute_us);
    EXPECT_DOUBLE_EQ(ranked.a2a_us, even.a2a_us);
    EXPECT_DOUBLE_EQ(ranked.collective_us, even.collective_us);
    // All sixteen on rank 0: its attention and dense work is 16 ranks' worth while the routed
    // experts see the same 16384 tokens: slower, but less than 16 times the balanced forward.
    const ChunkCost piled = t.time(0, sixteen_1k(), all_on_0);
    EXPECT_GT(piled.compute_us, 2 * even.compute_us);
    EXPECT_LT(piled.compute_us, 16 * even.compute_us);
    // DeepEP: rank 0's GPU now sends all 16384 tokens, 16 times one rank's share.
    if (std::string(config) == "deepep-dp") {
      EXPECT_GT(piled.a2a_us, 4 * even.a2a_us);
    }
  }
}

TEST(LayoutDeployment, DpAttentionPrefillWithoutAllToAllGathersByAllReduce) {
  // SGLang's dp_gather / dp_scatter around a TP MoE: an all-reduce of the zero-padded full
  // buffer, 16384 tokens × 7168 × 2 bytes = 234 881 024, before and after each of the 58 MoE
  // layers; the 3 dense layers run locally (--moe-dense-tp-size 1).
  const Deployment d = build_deployment(load_scenario(dsr1("baseline-dp")));
  const ForwardComms f = forward_comms(d.prefill_layout, d.model, std::vector<int>(16, 1024),
                                       std::vector<int>(16, 1), true, false);
  ASSERT_EQ(f.ops.size(), 2u);
  for (const auto& op : f.ops) {
    EXPECT_EQ(op.op, "all_reduce");
    EXPECT_EQ(op.layer, "moe");
    EXPECT_EQ(op.ranks, 16);
    EXPECT_DOUBLE_EQ(op.bytes, 234881024.0);
    EXPECT_EQ(op.count, 58);
  }
}

TEST(LayoutDeployment, DpAttentionPrefillRefusals) {
  auto error = [](const std::vector<std::string>& sets) -> std::string {
    try {
      build_deployment(load_scenario(dsr1("deepep"), sets));
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  // SGLang's own rule, named by field.
  const std::string dp = error({"prefill.dp=16"});
  EXPECT_NE(dp.find("field 'prefill.dp'"), std::string::npos) << dp;
  EXPECT_NE(dp.find("multi-node data parallel is not supported unless dp attention"),
            std::string::npos)
      << dp;
  // pdsim's: DP attention with context parallelism is not modelled.
  const std::string cp = error({"prefill.dp=8", "prefill.dp_attention=true", "prefill.cp=2"});
  EXPECT_NE(cp.find("prefill.cp"), std::string::npos) << cp;
}

TEST(LayoutDeployment, PureTpExpertsSplitEachExpertsFfn) {
  const Deployment d = build_deployment(load_scenario(dsr1("tp"), {}));
  // 256 experts with 1 token each, FFN 2048 / 16 = 128 wide; the shared expert on all 32
  // tokens, also 128 wide: gate_up FLOPs 2 · M · (2 · 128) · 7168.
  const std::vector<int> local(256, 1);
  const StepCost c = d.compute->decode_experts_layer(local, 32, 16, 16);
  EXPECT_DOUBLE_EQ(op_named(c, "experts.gate_up").flops, 2.0 * 256 * 2 * 128 * 7168);
  EXPECT_DOUBLE_EQ(op_named(c, "shared.gate_up").flops, 2.0 * 32 * 2 * 128 * 7168);
}

TEST(LayoutDeployment, GraphReplayPadsTheBatchWithContextOneRows) {
  const Deployment d = build_deployment(load_scenario(dsr1("baseline"), {}));
  DecodeCostModel cm(d, 1);
  RankState s;
  s.contexts = {500, 500, 500};
  const double padded = cm.rank(0, s, 4).attn_verify;
  DecodeRankBatch b{{500, 500, 500, 1}, 1};
  EXPECT_DOUBLE_EQ(padded, d.compute->decode_attention_layer(b).total_us());
  b.context_tokens = {500, 500, 500};
  EXPECT_DOUBLE_EQ(cm.rank(0, s, 0).attn_verify, d.compute->decode_attention_layer(b).total_us());
}

TEST(LayoutDeployment, CaptureListIsCutToTheRequestPool) {
  // SGLang get_batch_sizes_to_capture: above the pool, the pool size joins, then all above go.
  EXPECT_EQ(capture_bs_within_pool({128}, 16), (std::vector<int>{16}));
  EXPECT_EQ(capture_bs_within_pool({32, 8}, 16), (std::vector<int>{8, 16}));
  EXPECT_EQ(capture_bs_within_pool({1, 2, 4, 8, 16}, 4), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(capture_bs_within_pool({1, 2, 4, 8, 16}, 16), (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_EQ(capture_bs_within_pool({16, 8, 8}, 256), (std::vector<int>{8, 16}));
  // Under DP attention with attention TP 8 only multiples of 8 stay (pool 32 joins [64]).
  EXPECT_EQ(capture_bs_within_pool({1, 2, 4, 8, 12, 16, 64}, 32, 8), (std::vector<int>{8, 16, 32}));
  EXPECT_EQ(capture_bs_within_pool({}, 16, 1), (std::vector<int>{}));  // graphs off
  EXPECT_THROW(capture_bs_within_pool({1, 2, 4}, 4, 8), InfeasibleError);
  // The DP decode role of the sweep: --cuda-graph-bs 128, --max-running-requests 256 over dp 16:
  // a pool of 16 requests per rank, so the graph of 16 replays, and 3 requests pad to 16.
  const Deployment d = build_deployment(load_scenario(dsr1("baseline-dp"), {}));
  DecodeIterationTimer timer(d, 1);
  EXPECT_EQ(timer.cuda_graph_bs(), (std::vector<int>{16}));
  std::vector<RankState> ranks(16);
  ranks[0].contexts = {300, 300, 300};
  const FlowTracker none;
  Rng rng(1);
  const IterationTiming t = timer.time(IterationContext{0, ranks, none}, 0, rng);
  EXPECT_TRUE(t.cuda_graph);
  DecodeCostModel cm(d, 1);
  EXPECT_DOUBLE_EQ(t.terms.attention_us / d.model.num_moe_layers(),
                   cm.rank(0, ranks[0], 16).attn_verify);
}

TEST(LayoutDeployment, TpDecodeIterationPaysEveryLayersAllReduces) {
  const Deployment d = build_deployment(load_scenario(dsr1("baseline"), {}));
  DecodeIterationTimer timer(d, 1);
  std::vector<RankState> ranks(1);
  ranks[0].contexts = {300, 300, 300};  // 3 requests: the graph of 4 replays
  const FlowTracker none;
  Rng rng(1);
  const IterationTiming t = timer.time(IterationContext{0, ranks, none}, 0, rng);
  ASSERT_TRUE(t.cuda_graph);
  // 61 layers × (attention + MoE/MLP all-reduce) + the embedding's: 123 all-reduces of
  // 4 × 7168 × 2 B, and the LM head's logits all-gather of 4 × 129280 × 2 B (half the bus bytes
  // of an all-reduce of that buffer and the scenario's overlay's fraction of its alpha), all over
  // 16 GPUs on 2 nodes; each of the 124 calls adds the overlay's serving_call_us.
  const CollectiveProfile& p = *d.collective;
  EXPECT_EQ(p.estimated_alpha_fraction, 1.0);  // calibrate/overlays/dsr1-2p2d-p5en-20260624.json
  EXPECT_GT(p.serving_call_us, 0.0);
  const double ar = predict_collective(p, "all_reduce", 4 * 7168 * 2, 16, 2).time_us;
  const CollectivePrediction lm_ar = predict_collective(p, "all_reduce", 4.0 * 129280 * 2, 16, 2);
  const double lm = lm_ar.alpha_us + 0.5 * (lm_ar.time_us - lm_ar.alpha_us);
  EXPECT_NEAR(t.terms.collective_us, 123 * ar + lm + 124 * p.serving_call_us, 1e-6);
  EXPECT_EQ(t.terms.dispatch_us, 0.0);  // no all-to-all
  EXPECT_EQ(t.terms.combine_us, 0.0);
}

}  // namespace serve_layouts_test
}  // namespace pdsim

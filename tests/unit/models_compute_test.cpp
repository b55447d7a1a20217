#include <gtest/gtest.h>

#include "models/compute_model.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

const OpCost& find(const StepCost& c, const std::string& name) {
  for (const auto& op : c.ops)
    if (op.name == name) return op;
  throw std::runtime_error("no op " + name);
}

ComputeModel glm_h200(KvDtype kv = KvDtype::bf16) {
  return ComputeModel(load_model("glm-5.1-fp8"), load_gpu("h200"),
                      load_gpu_profile("h200-datasheet"), kv);
}

// GLM-5.1, one decode rank: 4 requests × 4 query tokens (MTP verify), context 100,000 each.
// T = 16 tokens.
DecodeRankBatch batch() {
  DecodeRankBatch b;
  b.context_tokens = {100000, 100000, 100000, 100000};
  b.query_tokens_per_request = 4;
  return b;
}

TEST(ModelsCompute, GlmDecodeProjection) {
  // q_a_proj: [16 × 6144]·[6144 × 2048]: flops 2·16·2048·6144 = 402,653,184.
  // bytes: FP8 weights 2048·6144 = 12,582,912 + scales 16·48·4 = 3072; FP8 input 16·6144 = 98,304
  // + scales 16·48·4 = 3072; BF16 output 16·2048·2 = 65,536 → 12,752,896.
  // H200 datasheet: memory time 12,752,896 / 4.8e12 = 2.65685 µs > compute 0.20346 µs.
  StepCost c = glm_h200().decode_attention_layer(batch());
  const OpCost& q = find(c, "mla.q_a_proj");
  EXPECT_DOUBLE_EQ(q.flops, 402653184.0);
  EXPECT_DOUBLE_EQ(q.bytes, 12752896.0);
  EXPECT_NEAR(q.time_us, 12752896.0 / 4.8e12 * 1e6, 1e-9);
  EXPECT_FALSE(q.compute_bound);
}

TEST(ModelsCompute, GlmDecodeIndexerScansWholeContext) {
  // Causal pairs per request: 4·100,000 + 4·5/2 = 400,010; × 4 requests = 1,600,040.
  // flops 2·32·128·1,600,040 = 13,107,527,680.
  // bytes: keys 4·100,004·132 = 52,802,112 + FP32 logits written and read 1,600,040·8 =
  // 12,800,320 → 65,602,432. Memory 13.667 µs > FP8 compute 6.623 µs.
  StepCost c = glm_h200().decode_attention_layer(batch());
  const OpCost& s = find(c, "indexer.scan");
  EXPECT_DOUBLE_EQ(s.flops, 13107527680.0);
  EXPECT_DOUBLE_EQ(s.bytes, 65602432.0);
  EXPECT_NEAR(s.time_us, 65602432.0 / 4.8e12 * 1e6, 1e-9);
}

TEST(ModelsCompute, GlmDecodeSparseAttentionReadsTopK) {
  // DSA: every query token attends min(c + i, 2048) = 2048 tokens → 16·2048 = 32,768 pairs.
  // flops 2·64·(2·512 + 64)·32,768 = 4,563,402,752.
  // bytes BF16 KV: gathered rows 32,768·1152 = 37,748,736; indices 16·2048·4 = 131,072;
  // q and out 16·64·(1024 + 64)·2 = 2,228,224; new KV written 16·(1152 + 132) = 20,544
  // → 40,128,576.
  StepCost bf = glm_h200().decode_attention_layer(batch());
  const OpCost& a = find(bf, "mla.attention");
  EXPECT_DOUBLE_EQ(a.flops, 4563402752.0);
  EXPECT_DOUBLE_EQ(a.bytes, 40128576.0);
  // FP8 KV (656 B rows): 32,768·656 = 21,495,808 + 131,072 + 2,228,224 + 16·(656 + 132) =
  // 12,608 → 23,867,712.
  StepCost f8 = glm_h200(KvDtype::fp8).decode_attention_layer(batch());
  EXPECT_DOUBLE_EQ(find(f8, "mla.attention").bytes, 23867712.0);
}

TEST(ModelsCompute, GlmDecodeGroupedExperts) {
  // 16 local experts × 8 tokens = 128 token-expert pairs.
  // gate_up flops 2·128·4096·6144 = 6,442,450,944; bytes: 16 experts × (4096·6144 + 32·48·4)
  // = 402,751,488 + FP8 input 128·6144·(1 + 4/128) = 811,008 + BF16 out 128·4096·2 = 1,048,576
  // → 404,611,072; memory-bound 84.294 µs.
  // Experts with no token cost nothing: 8 experts × 16 tokens reads half the weights.
  ComputeModel cm = glm_h200();
  StepCost c = cm.decode_experts_layer(std::vector<int>(16, 8), 16);
  const OpCost& g = find(c, "experts.gate_up");
  EXPECT_DOUBLE_EQ(g.flops, 6442450944.0);
  EXPECT_DOUBLE_EQ(g.bytes, 404611072.0);
  EXPECT_NEAR(g.time_us, 404611072.0 / 4.8e12 * 1e6, 1e-9);
  std::vector<int> half(16, 0);
  for (int i = 0; i < 8; ++i) half[static_cast<size_t>(i)] = 16;
  const StepCost hc =
      cm.decode_experts_layer(half, 16);  // keep the cost alive: find returns a reference
  const OpCost& h = find(hc, "experts.gate_up");
  EXPECT_DOUBLE_EQ(h.flops, g.flops);
  EXPECT_DOUBLE_EQ(h.bytes, 8 * 25171968.0 + 811008.0 + 1048576.0);
  // Shared expert on the 16 own tokens: gate_up [16 × 6144]·[6144 × 4096] = 805,306,368 flops.
  EXPECT_DOUBLE_EQ(find(c, "shared.gate_up").flops, 805306368.0);
}

// The routed experts' cost depends on the local tokens and the experts that got any: what the
// decode cost model memoizes on (sim/serve/cost/decode_cost.cpp) gives the same cost.
TEST(ModelsCompute, ExpertsCostDependsOnTokensAndActiveExpertsOnly) {
  const ExpertsLoad l = experts_load({0, 3, 0, 5});
  EXPECT_EQ(l.tokens, 8.0);
  EXPECT_EQ(l.active, 2.0);
  ComputeModel cm = glm_h200();
  std::vector<int> a(16, 0), b(16, 0);
  a[0] = 10, a[3] = 6, a[9] = 16;  // 32 tokens on 3 experts
  b[15] = 1, b[7] = 30, b[2] = 1;  // 32 tokens on 3 other experts, unevenly
  const double ca = cm.decode_experts_layer(a, 20).total_us();
  EXPECT_EQ(cm.decode_experts_layer(b, 20).total_us(), ca);
  EXPECT_EQ(cm.decode_experts_layer(ExpertsLoad{32, 3}, 20).total_us(), ca);
  EXPECT_NE(cm.decode_experts_layer(ExpertsLoad{32, 4}, 20).total_us(), ca);
}

TEST(ModelsCompute, GlmDecodeLmHead) {
  // DP LM head, full vocab, BF16: flops 2·16·154,880·6144 = 30,450,647,040;
  // bytes 154,880·6144·2 = 1,903,165,440 + in 16·6144·2 = 196,608 + out 16·154,880·2 = 4,956,160.
  StepCost c = glm_h200().decode_non_moe(batch());
  const OpCost& l = find(c, "lm_head");
  EXPECT_DOUBLE_EQ(l.flops, 30450647040.0);
  EXPECT_DOUBLE_EQ(l.bytes, 1903165440.0 + 196608.0 + 4956160.0);
  EXPECT_STREQ(l.category, "lm_head");
  // 3 dense layers: each dense MLP gate_up is [16 × 6144]·[6144 × 24576].
  const OpCost& d = find(c, "dense_mlp.gate_up");
  EXPECT_DOUBLE_EQ(d.count, 3.0);
  EXPECT_DOUBLE_EQ(d.flops, 2.0 * 16 * 24576 * 6144);
}

// TP8 → attention TP 1 under CP8, EP8, one MoE layer (layer 10).
PrefillLayout cp8_one_moe_layer() {
  PrefillLayout l;
  l.tp = 8;
  l.cp = 8;
  l.ep = 8;
  l.first_layer = 10;
  l.num_layers = 1;
  return l;
}

TEST(ModelsCompute, PrefillCpSplitsTokensAndPairs) {
  // One 16,384-token chunk, no prefix, CP8 (TP8 → attention TP 1), EP8, one MoE layer.
  // Each GPU: 2048 query tokens; indexer pairs 16384·16385/2 / 8 = 134,225,920 / 8 = 16,778,240;
  // indexer flops 2·32·128·16,778,240 = 137,447,342,080.
  // Routed experts: 32 local experts × 16384·8/256 = 512 tokens each → gate_up flops
  // 2·(32·512)·4096·6144 = 824,633,720,832.
  PrefillLayout l = cp8_one_moe_layer();
  StepCost c = glm_h200().prefill_chunk({{0, 16384}}, l);
  EXPECT_DOUBLE_EQ(find(c, "indexer.scan").flops, 137447342080.0);
  EXPECT_DOUBLE_EQ(find(c, "experts.gate_up").flops, 824633720832.0);
  EXPECT_DOUBLE_EQ(find(c, "mla.q_a_proj").flops, 2.0 * 2048 * 2048 * 6144);
  // Datasheet profile: launch overhead 0 µs per kernel.
  EXPECT_DOUBLE_EQ(c.category_us("overhead"), 0.0);
  l.ep = 7;
  EXPECT_THROW(glm_h200().prefill_chunk({{0, 16384}}, l), InfeasibleError);
}

TEST(ModelsCompute, PrefillIndexerUsesItsOwnCurveDecodeKeepsTheScan) {
  // The chunk of PrefillCpSplitsTokensAndPairs: indexer flops 137,447,342,080 per GPU; bytes:
  // keys 16384·132 = 2,162,688 + logits 16,778,240·8 = 134,225,920 → 136,388,608.
  // FP8 compute 137,447,342,080 / 1979e12 = 69.453 µs > memory 28.414 µs: compute bound.
  // indexer_prefill 0.5 (x = 16384 keys) → 138.906 µs; indexer_scan (1.0) stays decode's.
  GpuProfile p = load_gpu_profile("h200-datasheet");
  p.indexer_prefill.x = {16384};
  p.indexer_prefill.eff = {0.5};
  p.indexer_scan.eff = {0.25};
  ComputeModel m(load_model("glm-5.1-fp8"), load_gpu("h200"), p, KvDtype::bf16);
  const PrefillLayout l = cp8_one_moe_layer();
  const StepCost chunk = m.prefill_chunk({{0, 16384}}, l);
  const OpCost& s = find(chunk, "indexer.scan");
  EXPECT_DOUBLE_EQ(s.bytes, 136388608.0);
  EXPECT_TRUE(s.compute_bound);
  EXPECT_NEAR(s.time_us, 137447342080.0 / 1979e12 / 0.5 * 1e6, 1e-9);
  // Decode (GlmDecodeIndexerScansWholeContext's batch, memory bound) reads indexer_scan: /0.25.
  const StepCost decode = m.decode_attention_layer(batch());
  const OpCost& d = find(decode, "indexer.scan");
  EXPECT_NEAR(d.time_us, 65602432.0 / 4.8e12 / 0.25 * 1e6, 1e-9);
  // Without indexer_prefill, prefill falls back to indexer_scan.
  p.indexer_prefill = EfficiencyCurve{};
  ComputeModel f(load_model("glm-5.1-fp8"), load_gpu("h200"), p, KvDtype::bf16);
  const StepCost fallback = f.prefill_chunk({{0, 16384}}, l);
  EXPECT_NEAR(find(fallback, "indexer.scan").time_us, 137447342080.0 / 1979e12 / 0.25 * 1e6, 1e-9);
}

TEST(ModelsCompute, DraftStepNeedsMtp) {
  ComputeModel kimi(load_model("kimi-k2"), load_gpu("h200"), load_gpu_profile("h200-datasheet"),
                    KvDtype::bf16);
  EXPECT_THROW(kimi.decode_draft_step(batch()), InfeasibleError);
  // GLM's MTP step: eh_proj [16 × 12288]·[12288 × 6144] = 2,415,919,104 flops.
  StepCost d = glm_h200().decode_draft_step(batch());
  EXPECT_DOUBLE_EQ(find(d, "mtp.eh_proj").flops, 2415919104.0);
}

TEST(ModelsCompute, GqaDenseModelDecode) {
  // Qwen3-8B (36 dense layers, 32 heads, 8 KV heads × 128): 1 request, context 1000, 1 token.
  // Attention pairs 1000 + 1 = 1001; flops 4·32·128·1001 = 16,400,384;
  // KV read 1001 × 2·8·128·2 (4096 B) = 4,100,096.
  ComputeModel q(load_model("qwen3-8b"), load_gpu("h200"), load_gpu_profile("h200-datasheet"),
                 KvDtype::bf16);
  DecodeRankBatch b;
  b.context_tokens = {1000};
  StepCost c = q.decode_non_moe(b);
  const OpCost& a = find(c, "gqa.attention");
  EXPECT_DOUBLE_EQ(a.count, 36.0);
  EXPECT_DOUBLE_EQ(a.flops, 16400384.0);
  EXPECT_DOUBLE_EQ(a.bytes, 4100096.0 + 4096.0 + 2 * 32 * 128 * 2);
  // TP 8: 4 query heads and 1 KV head per rank → flops 4·4·128·1001 = 2,050,048; KV rows
  // 2·1·128·2 = 512 B → 1001·512 + 512 (new token) + 2·4·128·2 (q, out) = 515,072 B.
  q.set_decode_tp(8);
  const StepCost c8 = q.decode_non_moe(b);
  const OpCost& a8 = find(c8, "gqa.attention");
  EXPECT_DOUBLE_EQ(a8.flops, 2050048.0);
  EXPECT_DOUBLE_EQ(a8.bytes, 515072.0);
  EXPECT_THROW(q.set_decode_tp(3), InfeasibleError);
}

TEST(ModelsCompute, LaunchOverheadCountsKernels) {
  // GLM-5.1 decode, one modelled op = one kernel:
  //  attention block: input_norm, q_a, q_b, kv_a, q/kv_a norm, indexer q/k/weights/scan (4),
  //    absorb_uk, attention, absorb_uv, o_proj, post_norm = 14 (+ router gate in MoE layers)
  //  MoE layer: 15 + experts gate_up/act/down + shared gate_up/act/down (6) + dispatch, combine
  //    (2) = 23; × 75 = 1725
  //  dense layers: 3 × (14 + dense MLP 3) = 51; embedding 1; final norm + LM head 2
  //  total 1725 + 51 + 1 + 2 = 1779.
  ComputeModel cm = glm_h200();
  EXPECT_EQ(cm.decode_kernels_per_forward(), 1779);
  // Datasheet profile: both overheads 0 → 0 µs.
  EXPECT_DOUBLE_EQ(cm.decode_launch_overhead_us(true), 0.0);
  // A profile with 5 µs eager launch and 1.5 µs per graph kernel: 1779 × 1.5 = 2668.5 µs.
  GpuProfile p = load_gpu_profile("h200-datasheet");
  p.kernel_launch_us = 5;
  p.graph_kernel_us = 1.5;
  ComputeModel m(load_model("glm-5.1-fp8"), load_gpu("h200"), p, KvDtype::bf16);
  EXPECT_DOUBLE_EQ(m.decode_launch_overhead_us(true), 2668.5);
  EXPECT_DOUBLE_EQ(m.decode_launch_overhead_us(false), 8895.0);
}

}  // namespace
}  // namespace pdsim

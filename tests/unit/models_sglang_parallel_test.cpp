// SGLang's parallelism rules (models/sglang_parallel) and the collectives of one forward under a
// layout (models/layer_comms), on a small MoE model so every byte count is hand-computed:
// 4 layers (layer 0 dense), hidden 1024 (2048 B per BF16 token), vocab 1000 (2000 B per token's
// logits), 16 routed experts, MoE intermediate 512, 16 heads.
#include <gtest/gtest.h>

#include "models/layer_comms.hpp"
#include "models/sglang_parallel.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

ModelConfig tiny(const std::string& dtype = "bf16") {
  ModelConfig m;
  m.name = "tiny";
  m.num_layers = 4;
  m.first_k_dense = 1;
  m.hidden = 1024;
  m.dense_intermediate = 4096;
  m.moe_intermediate = 512;
  m.n_routed_experts = 16;
  m.n_shared_experts = 1;
  m.top_k = 2;
  m.vocab = 1000;
  m.attention = "mla";
  m.num_heads = 16;
  m.weight_dtype = dtype;
  m.weight_block = 128;
  return m;
}

SglangParallelFlags tp16() {
  SglangParallelFlags f;
  f.tp = 16;
  f.nnodes = 2;
  return f;
}

std::string refusal(const SglangParallelFlags& f, const ModelConfig& m = tiny()) {
  try {
    resolve_sglang_parallel(f, m, "cmd", "decode");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SglangParallel, GroupsOfTp16WithDpAttention4) {
  SglangParallelFlags f = tp16();
  f.dp = 4;
  f.dp_attention = true;
  f.dp_lm_head = true;
  f.moe_dense_tp = 1;
  const SglangParallel p = resolve_sglang_parallel(f, tiny(), "cmd", "decode");
  EXPECT_EQ(p.gpus, 16);
  EXPECT_EQ(p.attn_tp, 4);
  EXPECT_EQ(p.attn_dp, 4);
  EXPECT_EQ(p.moe_ep, 1);
  EXPECT_EQ(p.moe_tp, 16);
  EXPECT_EQ(p.dense_tp, 1);
  EXPECT_EQ(p.lm_head_tp, 4);
  EXPECT_TRUE(p.embedding_replicated);
  EXPECT_FALSE(p.moe_a2a);
  EXPECT_TRUE(p.adjustments.empty());
}

TEST(SglangParallel, SilentAdjustmentsAreReported) {
  SglangParallelFlags f = tp16();
  f.dp_attention = true;  // dp 1: SGLang turns it off
  f.moe_a2a_backend = "deepep";
  f.deepep_mode = "normal";
  f.ep = 4;  // DeepEP sets ep = tp
  const SglangParallel p = resolve_sglang_parallel(f, tiny(), "cmd", "prefill");
  EXPECT_FALSE(p.flags.dp_attention);
  EXPECT_EQ(p.attn_tp, 16);
  EXPECT_EQ(p.flags.ep, 16);
  EXPECT_EQ(p.moe_ep, 16);
  EXPECT_EQ(p.moe_tp, 1);
  EXPECT_TRUE(p.cuda_graph_disabled);
  ASSERT_EQ(p.adjustments.size(), 3u);
  EXPECT_EQ(p.adjustments[1],
            "--moe-a2a-backend deepep: --ep-size 4 adjusted to the tensor "
            "parallel size 16");
}

TEST(SglangParallel, RefusalsNameSglangsRule) {
  SglangParallelFlags f = tp16();
  f.dp = 6;
  f.dp_attention = true;
  EXPECT_TRUE(has(refusal(f), "field 'decode --dp-size'")) << refusal(f);
  EXPECT_TRUE(has(refusal(f), "tp_size % dp_size == 0"));
  f = tp16();
  f.dp = 2;
  f.dp_lm_head = true;  // without --enable-dp-attention
  EXPECT_TRUE(has(refusal(f), "Please enable dp attention when setting enable_dp_lm_head"));
  f = tp16();
  f.dp = 2;  // replicas across 2 nodes
  EXPECT_TRUE(has(refusal(f), "multi-node data parallel is not supported unless dp attention"));
  f = tp16();
  f.moe_dense_tp = 2;
  EXPECT_TRUE(has(refusal(f), "moe_dense_tp_size only support 1 and None currently"));
  f = tp16();
  f.nnodes = 3;
  EXPECT_TRUE(has(refusal(f), "tp_size must be divisible by number of nodes"));
  f = tp16();
  f.ep = 3;
  EXPECT_TRUE(has(refusal(f), "tp_size must be divisible by ep_size"));
  f = tp16();
  f.dp = 16;
  f.dp_attention = true;
  f.speculative_algorithm = "NGRAM";
  EXPECT_TRUE(has(refusal(f), "Currently ngram speculative decoding does not support dp"));
  f = tp16();
  f.pp = 2;
  f.speculative_algorithm = "EAGLE";
  EXPECT_TRUE(has(refusal(f), "Pipeline parallelism is not compatible"));
  f = tp16();
  f.tp = 32;
  EXPECT_TRUE(has(refusal(f), "greater than the number of experts"));
  // FP8 block 128: tp 16 / ep 2 = moe_tp 8 gives 512 / 8 = 64 columns per shard, not a block.
  f = tp16();
  f.ep = 2;
  EXPECT_TRUE(has(refusal(f, tiny("fp8")), "fix this by setting arguments --tp and --ep"));
  f.ep = 4;  // 512 / 4 = 128: accepted
  EXPECT_EQ(refusal(f, tiny("fp8")), "");
  f = tp16();
  f.moe_a2a_backend = "pplx";
  EXPECT_TRUE(has(refusal(f), "none, deepep or mooncake"));
}

const CommOp* find(const ForwardComms& c, const std::string& step, const std::string& layer,
                   const std::string& op, const std::string& group) {
  for (const auto& o : c.ops)
    if (o.step == step && o.layer == layer && o.op == op && o.group == group) return &o;
  return nullptr;
}

TEST(LayerComms, PureTp16TwoAllReducesPerLayer) {
  const SglangParallel p = resolve_sglang_parallel(tp16(), tiny(), "cmd", "decode");
  const ForwardComms c = forward_comms(p, tiny(), {32}, {32}, false, true);
  // Embedding all-reduce; per layer attention and MLP all-reduces of 32 × 2048 B; the LM
  // head's all-gather of 32 × 1000 logits × 2 B.
  const std::vector<CommOp> want = {{"embedding", "", "all_reduce", "tp", 16, 65536, 1},
                                    {"prepare_mlp", "dense", "all_reduce", "tp", 16, 65536, 1},
                                    {"mlp", "dense", "all_reduce", "tp", 16, 65536, 1},
                                    {"prepare_mlp", "moe", "all_reduce", "tp", 16, 65536, 3},
                                    {"mlp", "moe", "all_reduce", "tp", 16, 65536, 3},
                                    {"lm_head", "", "all_gather", "tp", 16, 64000, 1}};
  EXPECT_EQ(c.ops, want);
  EXPECT_EQ(c.padding, "");
  EXPECT_EQ(c.moe_tokens_per_rank, 32);
}

TEST(LayerComms, DeepEpWithDpAttention16IsOnlyTheAllToAll) {
  SglangParallelFlags f = tp16();
  f.dp = 16;
  f.dp_attention = true;
  f.dp_lm_head = true;
  f.moe_dense_tp = 1;
  f.moe_a2a_backend = "deepep";
  const SglangParallel p = resolve_sglang_parallel(f, tiny(), "cmd", "decode");
  const std::vector<int> eight(16, 8);
  const ForwardComms c = forward_comms(p, tiny(), eight, eight, false, true);
  // attn_tp 1: no reduce-scatter or gather; each rank dispatches its 8 tokens; no LM-head
  // collective (every rank holds the whole vocab).
  const std::vector<CommOp> want = {{"mlp", "moe", "all_to_all", "ep", 16, 8 * 2048, 3}};
  EXPECT_EQ(c.ops, want);
  EXPECT_EQ(c.moe_tokens_per_rank, 8);
}

SglangParallel tp16_dp4() {
  SglangParallelFlags f = tp16();
  f.dp = 4;
  f.dp_attention = true;
  f.dp_lm_head = true;
  f.moe_dense_tp = 1;
  return resolve_sglang_parallel(f, tiny(), "cmd", "decode");
}

TEST(LayerComms, DpAttention4DecodeGraphPadsToTheLargestGroup) {
  // Groups of 8, 8, 8, 6 tokens: rounded to multiples of attn_tp 4 → 8 each; MAX_LEN (graph).
  const ForwardComms c = forward_comms(tp16_dp4(), tiny(), {8, 8, 8, 6}, {8, 8, 8, 6}, false, true);
  EXPECT_EQ(c.padding, "max_len");
  EXPECT_EQ(c.group_tokens, (std::vector<int>{8, 8, 8, 8}));
  EXPECT_EQ(c.moe_tokens_per_rank, 32);  // the experts see every group's 8 tokens
  const std::vector<CommOp> want = {
      // Dense layer 0 (replicated MLP): attention's sums reduce-scattered in the attn-TP group.
      {"prepare_mlp", "dense", "reduce_scatter", "attn_tp", 4, 8 * 2048, 1},
      // Layer 1 gathers that scattered output back in its attn-TP group first.
      {"prepare_attn", "moe", "all_gather", "attn_tp", 4, 8 * 2048, 1},
      {"prepare_mlp", "moe", "reduce_scatter", "attn_tp", 4, 8 * 2048, 3},
      {"prepare_mlp", "moe", "all_gather", "tp", 16, 32 * 2048, 3},
      {"postprocess", "moe", "reduce_scatter", "tp", 16, 32 * 2048, 3},
      {"postprocess", "moe", "all_gather", "attn_tp", 4, 8 * 2048, 3},
      {"lm_head", "", "all_gather", "attn_tp", 4, 8 * 2000, 1}};
  EXPECT_EQ(c.ops, want);
}

TEST(LayerComms, DpAttention4PrefillSumsTheGroups) {
  const ForwardComms c =
      forward_comms(tp16_dp4(), tiny(), {100, 200, 300, 400}, {1, 2, 3, 4}, true, false);
  EXPECT_EQ(c.padding, "sum_len");
  EXPECT_EQ(c.moe_tokens_per_rank, 1000);
  const std::vector<CommOp> want = {
      {"prepare_mlp", "dense", "reduce_scatter", "attn_tp", 4, 400 * 2048, 1},
      {"prepare_attn", "moe", "all_gather", "attn_tp", 4, 400 * 2048, 1},
      {"prepare_mlp", "moe", "all_reduce", "tp", 16, 1000 * 2048, 3},
      {"mlp", "moe", "all_reduce", "tp", 16, 1000 * 2048, 3},
      {"lm_head", "", "all_gather", "attn_tp", 4, 4 * 2000, 1}};
  EXPECT_EQ(c.ops, want);
}

TEST(LayerComms, DecodeWithoutGraphsPadsOnlyWhenPaddingCostsLessThanTwice) {
  // {1,1,1,13} → {4,4,4,16}: sum 28, 2·28 = 56 <= 16·4 = 64: SUM_LEN. {8,8,8,8}: MAX_LEN.
  EXPECT_EQ(forward_comms(tp16_dp4(), tiny(), {1, 1, 1, 13}, {1, 1, 1, 13}, false, false).padding,
            "sum_len");
  EXPECT_EQ(forward_comms(tp16_dp4(), tiny(), {8, 8, 8, 8}, {8, 8, 8, 8}, false, false).padding,
            "max_len");
}

TEST(LayerComms, WithoutTheDpLmHeadLogitsGatherOverTp) {
  SglangParallelFlags f = tp16();
  f.dp = 4;
  f.dp_attention = true;
  const SglangParallel p = resolve_sglang_parallel(f, tiny(), "cmd", "decode");
  const ForwardComms c = forward_comms(p, tiny(), {8, 8, 8, 8}, {8, 8, 8, 8}, false, true);
  // dp_gather_replicate of 32 hidden states (an all-reduce over TP), then the TP all-gather of
  // 32 tokens' logits.
  const CommOp* ar = find(c, "lm_head", "", "all_reduce", "tp");
  const CommOp* ag = find(c, "lm_head", "", "all_gather", "tp");
  ASSERT_TRUE(ar && ag);
  EXPECT_EQ(ar->bytes, 32 * 2048);
  EXPECT_EQ(ag->bytes, 32 * 2000);
  EXPECT_THROW(forward_comms(p, tiny(), {8}, {8}, false, true), InputError);
}

}  // namespace
}  // namespace pdsim

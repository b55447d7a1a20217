// Decode and prefill steps assembled from the per-block ops (attention_ops.cpp, ffn_ops.cpp).
// Decode runs per DP-attention rank: attention TP 1, full heads, the rank's own requests; the
// dense MLP with moe-dense-tp-size 1 and the LM head with --enable-dp-lm-head (full vocab).
// set_decode_tp(N) instead models plain TP decode (heads, dense MLP and vocab split N ways).
#include "models/compute_model.hpp"

#include <algorithm>

#include "models/compute_ops.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

AttnShape decode_shape(const DecodeRankBatch& b, int tp) {
  AttnShape s;
  s.attn_tp = tp;
  for (int c : b.context_tokens)
    s.requests.push_back({double(c), double(b.query_tokens_per_request)});
  return s;
}

double kernels(const StepCost& c) {
  double k = 0;
  for (const auto& op : c.ops) k += op.count;
  return k;
}

}  // namespace

ComputeModel::ComputeModel(ModelConfig model, GpuSpec gpu, GpuProfile profile, KvDtype kv_dtype)
    : model_(std::move(model)),
      gpu_(std::move(gpu)),
      profile_(std::move(profile)),
      kv_dtype_(kv_dtype) {}

StepCost ComputeModel::decode_attention_layer(const DecodeRankBatch& b) const {
  Roofline rf(gpu_, profile_);
  return attention_block(model_, rf, kv_dtype_, decode_shape(b, decode_tp_), model_.is_moe());
}

StepCost ComputeModel::decode_experts_layer(const std::vector<int>& tokens_per_local_expert,
                                            int shared_tokens, int moe_tp, int shared_tp) const {
  std::vector<double> t(tokens_per_local_expert.begin(), tokens_per_local_expert.end());
  return decode_experts_layer(experts_load(t), shared_tokens, moe_tp, shared_tp);
}

StepCost ComputeModel::decode_experts_layer(ExpertsLoad load, int shared_tokens, int moe_tp,
                                            int shared_tp) const {
  Roofline rf(gpu_, profile_);
  StepCost out = routed_experts(model_, rf, load, moe_tp);
  out.append(shared_experts(model_, rf, shared_tokens, shared_tp));
  return out;
}

StepCost ComputeModel::decode_non_moe(const DecodeRankBatch& b) const {
  Roofline rf(gpu_, profile_);
  const double T = b.num_tokens();
  StepCost out;
  out.add(embedding(model_, rf, T));
  if (model_.num_dense_layers() > 0) {
    StepCost layer = attention_block(model_, rf, kv_dtype_, decode_shape(b, decode_tp_), false);
    layer.append(dense_mlp(model_, rf, T, decode_tp_));
    out.append(layer, model_.num_dense_layers());
  }
  out.append(lm_head(model_, rf, T, decode_tp_));
  return out;
}

void ComputeModel::set_decode_tp(int tp) {
  if (tp < 1 || model_.num_heads % tp != 0)
    throw InfeasibleError("decode TP " + std::to_string(tp) + " does not divide the " +
                          std::to_string(model_.num_heads) + " attention heads of " + model_.name);
  decode_tp_ = tp;
}

StepCost ComputeModel::decode_draft_step(const DecodeRankBatch& b) const {
  if (model_.mtp_layers <= 0)
    throw InfeasibleError("model '" + model_.name + "' has no MTP layer to draft with");
  Roofline rf(gpu_, profile_);
  const double T = b.num_tokens(), h = model_.hidden;
  StepCost out;
  out.add(embedding(model_, rf, T));
  // enorm(embedding) and hnorm(previous hidden state), then eh_proj [2h → h] on their concat.
  out.add(rf.stream("mtp.enorm_hnorm", "other", 8 * T * h, 4 * T * h * kBf16Bytes));
  out.add(rf.gemm("mtp.eh_proj", "attention", T, h, 2 * h, model_.weight_dtype == "fp8",
                  model_.weight_block));
  out.append(attention_block(model_, rf, kv_dtype_, decode_shape(b, decode_tp_), model_.is_moe()));
  out.append(lm_head(model_, rf, T, decode_tp_));
  return out;
}

int ComputeModel::decode_kernels_per_forward() const {
  DecodeRankBatch one;
  one.context_tokens = {1};
  double k = kernels(decode_non_moe(one));
  if (model_.is_moe()) {
    std::vector<int> experts(1, 1);
    double per_layer = kernels(decode_attention_layer(one)) +
                       kernels(decode_experts_layer(experts, 1)) + 2;  // + dispatch, combine
    k += per_layer * model_.num_moe_layers();
  }
  return static_cast<int>(k);
}

double ComputeModel::decode_launch_overhead_us(bool cuda_graph) const {
  return decode_kernels_per_forward() *
         (cuda_graph ? profile_.graph_kernel_us : profile_.kernel_launch_us);
}

// Prefill chunk on one GPU of a PP stage. Attention: `cp` GPUs share the chunk's new tokens
// round-robin (each 1/cp of every segment, attending the whole prefix; the KV all-gather is in
// sim/fabric), heads split attn_tp = tp / cp ways. MoE/dense MLP: each GPU owns
// T_m = Σ new / (cp · attn_tp) tokens. Routed experts: the stage's EP group (the GPUs sharing the
// chunk) has Σ new × top_k token-expert pairs, spread uniformly over all experts, so each of the
// n_routed / ep local experts gets Σ new × top_k / n_routed tokens. No CUDA graph in prefill:
// every op pays kernel_launch_us.
StepCost ComputeModel::prefill_chunk(const std::vector<PrefillSegment>& chunk,
                                     const PrefillLayout& l) const {
  const ModelConfig& m = model_;
  if (l.tp < 1 || l.cp < 1 || l.ep < 1 || l.moe_dense_tp < 1 || l.moe_tp < 1)
    throw InfeasibleError("prefill layout: tp, cp, ep, moe_dense_tp and moe_tp must be >= 1");
  if (l.first_layer < 0 || l.num_layers < 0 || l.first_layer + l.num_layers > m.num_layers)
    throw InfeasibleError("prefill layout: layers [" + std::to_string(l.first_layer) + ", " +
                          std::to_string(l.first_layer + l.num_layers) + ") outside the model's " +
                          std::to_string(m.num_layers));
  if (m.is_moe() && m.n_routed_experts % l.ep != 0)
    throw InfeasibleError("EP " + std::to_string(l.ep) + " does not divide " +
                          std::to_string(m.n_routed_experts) + " experts");
  if (l.tp > l.cp && l.tp % l.cp != 0)
    throw InfeasibleError("prefill layout: tp " + std::to_string(l.tp) + " not a multiple of cp " +
                          std::to_string(l.cp));
  Roofline rf(gpu_, profile_);
  AttnShape s;
  double total_new = 0;
  for (const auto& seg : chunk) {
    s.requests.push_back({double(seg.prefix_tokens), double(seg.new_tokens)});
    total_new += seg.new_tokens;
  }
  s.cp = l.cp;
  s.attn_tp = std::max(1, l.tp / l.cp);
  s.decode = false;
  const double tokens_mlp = total_new / (s.cp * s.attn_tp);

  int dense = 0, moe = 0;
  for (int i = l.first_layer; i < l.first_layer + l.num_layers; ++i)
    (m.is_moe_layer(i) ? moe : dense)++;

  StepCost out;
  if (l.has_embedding) out.add(embedding(m, rf, s.tokens()));
  if (dense > 0) {
    StepCost layer = attention_block(m, rf, kv_dtype_, s, false);
    layer.append(dense_mlp(m, rf, tokens_mlp * l.moe_dense_tp, l.moe_dense_tp));
    out.append(layer, dense);
  }
  if (moe > 0) {
    StepCost layer = attention_block(m, rf, kv_dtype_, s, true);
    std::vector<double> local(static_cast<size_t>(m.n_routed_experts / l.ep),
                              total_new * m.top_k / m.n_routed_experts);
    layer.append(routed_experts(m, rf, local, l.moe_tp));
    // Without an all-to-all the TP group's shared expert runs every token, split tp ways.
    if (l.moe_full)
      layer.append(shared_experts(m, rf, tokens_mlp * l.tp, l.tp));
    else
      layer.append(shared_experts(m, rf, tokens_mlp));
    out.append(layer, moe);
  }
  // Logits only for each segment's last token (SGLang prunes the rest before the LM head).
  if (l.has_lm_head)
    out.append(lm_head(m, rf, static_cast<double>(chunk.size()), std::max(1, l.tp / l.cp)));

  OpCost launch;
  launch.name = "overhead.kernel_launch";
  launch.category = "overhead";
  launch.time_us = profile_.kernel_launch_us;
  launch.count = kernels(out) + 2.0 * moe;  // + dispatch and combine per MoE layer
  out.add(launch);
  return out;
}

}  // namespace pdsim

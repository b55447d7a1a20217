// Feed-forward blocks on one GPU: routed experts (grouped GEMM), shared experts, dense MLP,
// embedding and LM head. h = hidden, I = moe_intermediate (or intermediate for dense layers).
// A SwiGLU MLP is gate/up [h → 2I], SiLU(gate)·up, down [I → h]: 6·n·h·I flops for n tokens.
#include <algorithm>
#include <cmath>

#include "models/compute_ops.hpp"

namespace pdsim {
namespace {

// SiLU·mul (+ FP8 re-quantization of its output when the weights are FP8): reads n × 2I BF16,
// writes n × I (1 B + a scale per 128 for FP8, else 2 B).
OpCost activation(const ModelConfig& m, const Roofline& rf, const char* name, const char* cat,
                  double n, double inter) {
  bool fp8 = m.weight_dtype == "fp8";
  double out = fp8 ? n * inter * kFp8Bytes + n * std::ceil(inter / 128.0) * kFp32Bytes
                   : n * inter * kBf16Bytes;
  return rf.stream(name, cat, 4 * n * inter, n * 2 * inter * kBf16Bytes + out);
}

}  // namespace

// Grouped GEMM over the local experts (DeepGEMM masked/contiguous layout): FLOPs count only real
// tokens; each expert with ≥ 1 token reads its whole weight matrix once (experts with none are
// skipped); activations in FP8 (+ per-128 scales) and BF16 out. Efficiency from grouped_gemm_fp8
// at the mean tokens per active expert.
StepCost routed_experts(const ModelConfig& m, const Roofline& rf,
                        const std::vector<double>& tokens_per_local_expert, int tp) {
  return routed_experts(m, rf, experts_load(tokens_per_local_expert), tp);
}

StepCost routed_experts(const ModelConfig& m, const Roofline& rf, ExpertsLoad load, int tp) {
  const double h = m.hidden, I = static_cast<double>(m.moe_intermediate) / tp;
  const bool fp8 = m.weight_dtype == "fp8";
  const double n = load.tokens, active = load.active;
  const double per_expert = active > 0 ? n / active : 0;
  const auto peak = fp8 ? Roofline::Peak::fp8 : Roofline::Peak::bf16;
  const double act_in = fp8 ? kFp8Bytes + kFp32Bytes / 128.0 : kBf16Bytes;  // per element
  StepCost out;
  out.add(rf.op("experts.gate_up", "moe_compute", 2 * n * 2 * I * h,
                active * model_linear_bytes(m, 2 * I, h) + n * h * act_in + n * 2 * I * kBf16Bytes,
                peak, rf.profile().grouped_gemm_fp8, per_expert));
  out.add(activation(m, rf, "experts.act", "moe_compute", n, I));
  out.add(rf.op("experts.down", "moe_compute", 2 * n * I * h,
                active * model_linear_bytes(m, h, I) + n * I * act_in + n * h * kBf16Bytes, peak,
                rf.profile().grouped_gemm_fp8, per_expert));
  return out;
}

StepCost shared_experts(const ModelConfig& m, const Roofline& rf, double tokens, int tp) {
  StepCost out;
  if (m.n_shared_experts <= 0) return out;
  const double I = static_cast<double>(m.moe_intermediate) * m.n_shared_experts / tp;
  const bool fp8 = m.weight_dtype == "fp8";
  out.add(rf.gemm("shared.gate_up", "moe_compute", tokens, 2 * I, m.hidden, fp8, m.weight_block));
  out.add(activation(m, rf, "shared.act", "moe_compute", tokens, I));
  out.add(rf.gemm("shared.down", "moe_compute", tokens, m.hidden, I, fp8, m.weight_block));
  return out;
}

StepCost dense_mlp(const ModelConfig& m, const Roofline& rf, double tokens, int tp) {
  StepCost out;
  const double I = static_cast<double>(m.dense_intermediate) / tp;
  const bool fp8 = m.weight_dtype == "fp8";
  out.add(rf.gemm("dense_mlp.gate_up", "dense_mlp", tokens, 2 * I, m.hidden, fp8, m.weight_block));
  out.add(activation(m, rf, "dense_mlp.act", "dense_mlp", tokens, I));
  out.add(rf.gemm("dense_mlp.down", "dense_mlp", tokens, m.hidden, I, fp8, m.weight_block));
  return out;
}

// Gather of `tokens` BF16 rows of the embedding table, written out: 2 × tokens × h × 2 B.
OpCost embedding(const ModelConfig& m, const Roofline& rf, double tokens) {
  return rf.stream("embedding", "other", 0, 2 * tokens * m.hidden * kBf16Bytes);
}

// Final RMSNorm, then the BF16 LM head GEMM [tokens × h] · [h × vocab/tp].
StepCost lm_head(const ModelConfig& m, const Roofline& rf, double tokens, int tp) {
  StepCost out;
  out.add(
      rf.stream("final_norm", "other", 4 * tokens * m.hidden, 2 * tokens * m.hidden * kBf16Bytes));
  out.add(rf.gemm("lm_head", "lm_head", tokens, static_cast<double>(m.vocab) / tp, m.hidden, false,
                  m.weight_block));
  return out;
}

}  // namespace pdsim

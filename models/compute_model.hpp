#pragma once
// Compute cost model: per-op FLOPs and HBM bytes for a prefill chunk and a decode forward,
// turned into time by a roofline (datasheet peaks from GpuSpec × efficiencies from GpuProfile)
// plus kernel-launch or CUDA-graph overheads. Communication is not here (sim/fabric).
#include <vector>

#include "models/experts_load.hpp"
#include "models/gpu_profile.hpp"
#include "models/hardware.hpp"
#include "models/kv_dtype.hpp"
#include "models/model_config.hpp"
#include "models/op_cost.hpp"

namespace pdsim {

// The requests one decode DP-attention rank runs in one forward.
struct DecodeRankBatch {
  std::vector<int> context_tokens;  // KV length of each request before this forward
  int query_tokens_per_request =
      1;  // 1 for plain decode / a draft step, num_draft_tokens for verify
  int num_requests() const { return static_cast<int>(context_tokens.size()); }
  int num_tokens() const { return num_requests() * query_tokens_per_request; }
};

// One contiguous piece of a request inside a prefill chunk.
struct PrefillSegment {
  int prefix_tokens = 0;  // already in the KV cache (earlier chunks)
  int new_tokens = 0;
};

struct PrefillLayout {
  int tp = 1, cp = 1, ep = 1;           // within one PP stage
  int first_layer = 0, num_layers = 0;  // the stage's layer range
  bool has_embedding = false, has_lm_head = false;
  int moe_dense_tp = 1;   // --moe-dense-tp-size: dense-layer MLP weights split this many ways
  int moe_tp = 1;         // each routed expert's FFN split this many ways (SGLang: tp / ep)
  bool moe_full = false;  // no all-to-all: every GPU's experts see all of the chunk's tokens and
                          // the shared expert is split over tp (else its own tokens, replicated)
};

class ComputeModel {
 public:
  ComputeModel(ModelConfig model, GpuSpec gpu, GpuProfile profile, KvDtype kv_dtype);

  // Decode, per rank. One MoE layer's attention block: norms, q/kv projections, indexer scan,
  // (sparse) absorbed-MLA attention, o_proj, router gate.
  StepCost decode_attention_layer(const DecodeRankBatch& b) const;
  // One MoE layer's expert work on a rank: grouped GEMM over its local experts with
  // `tokens_per_local_expert[i]` tokens each (FP8 block scales), each expert's FFN split
  // `moe_tp` ways, plus the shared expert on `shared_tokens` split `shared_tp` ways (DeepEP: the
  // rank's own tokens, 1; no all-to-all backend: every token, over the TP group).
  StepCost decode_experts_layer(const std::vector<int>& tokens_per_local_expert, int shared_tokens,
                                int moe_tp = 1, int shared_tp = 1) const;
  // The same from what the routed experts' cost depends on (models/experts_load.hpp).
  StepCost decode_experts_layer(ExpertsLoad load, int shared_tokens, int moe_tp = 1,
                                int shared_tp = 1) const;
  // The dense layers (attention + dense MLP), embedding, final norm and LM head for the rank's
  // tokens (DP attention, dense MLP with moe-dense-tp-size 1, DP LM head).
  StepCost decode_non_moe(const DecodeRankBatch& b) const;
  // One draft (MTP/EAGLE) step on a rank: embedding, enorm/hnorm, eh_proj, the MTP layer's
  // attention block (with its router gate), shared-head norm and LM head (shared with the target
  // model). The MTP layer's routed experts and its dispatch/combine are NOT included: the caller
  // adds decode_experts_layer(...) and the all-to-all for them, exactly as for a target MoE layer.
  // Throws InfeasibleError when the model has no MTP layer.
  StepCost decode_draft_step(const DecodeRankBatch& b) const;
  // Kernels per forward (for launch / graph overhead) and the overhead itself. One modelled op =
  // one kernel, plus one dispatch and one combine kernel per MoE layer.
  int decode_kernels_per_forward() const;
  double decode_launch_overhead_us(bool cuda_graph) const;

  // Prefill, per GPU of one PP stage, for one chunk. CP round-robin splits every segment's new
  // tokens evenly over `cp` GPUs; EP splits experts over `ep` GPUs (uniform routing assumed).
  StepCost prefill_chunk(const std::vector<PrefillSegment>& chunk,
                         const PrefillLayout& layout) const;

  // Decode without DP attention (e.g. a dense model served with --tp-size N): heads, dense MLP and
  // LM head split `tp` ways on every rank, which runs the whole batch. Default 1 (DP attention).
  void set_decode_tp(int tp);

  const ModelConfig& model() const { return model_; }
  const GpuSpec& gpu() const { return gpu_; }
  const GpuProfile& profile() const { return profile_; }
  KvDtype kv_dtype() const { return kv_dtype_; }

 private:
  ModelConfig model_;
  GpuSpec gpu_;
  GpuProfile profile_;
  KvDtype kv_dtype_;
  int decode_tp_ = 1;
};

}  // namespace pdsim

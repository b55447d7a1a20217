#pragma once
// Building blocks of the compute model (internal to models/): each returns the ops of one block
// for one GPU, with FLOPs and HBM bytes written out in the .cpp comments.
#include <vector>

#include "models/compute_model.hpp"
#include "models/roofline.hpp"

namespace pdsim {

// Per-request shape of an attention call on one GPU.
struct AttnRequest {
  double context = 0;  // tokens already in the KV cache
  double query = 0;    // new tokens of the request processed by this call (all CP ranks)
};

struct AttnShape {
  std::vector<AttnRequest> requests;
  double cp = 1;          // context-parallel ranks sharing the query tokens round-robin
  double attn_tp = 1;     // attention tensor parallel (heads split)
  bool decode = true;     // decode kernels (absorbed MLA) vs prefill kernels
  double tokens() const;  // query tokens on this GPU: Σ query / cp
};

// Norms, projections, indexer, attention core, output projection of one layer; the router gate
// is added when `with_router`.
StepCost attention_block(const ModelConfig& m, const Roofline& rf, KvDtype kv, const AttnShape& s,
                         bool with_router);
// Routed experts of one MoE layer on one GPU (grouped GEMM over local experts that got tokens),
// each expert's intermediate split `tp` ways (SGLang's MoE TP: tp / ep).
StepCost routed_experts(const ModelConfig& m, const Roofline& rf, ExpertsLoad load, int tp = 1);
StepCost routed_experts(const ModelConfig& m, const Roofline& rf,
                        const std::vector<double>& tokens_per_local_expert, int tp = 1);
// The shared expert(s) on `tokens` tokens, intermediate split `tp` ways (1: replicated, as with
// DeepEP; the TP group without an all-to-all backend).
StepCost shared_experts(const ModelConfig& m, const Roofline& rf, double tokens, int tp = 1);
// Dense MLP (gate/up, SiLU·mul, down) on `tokens` tokens with the weights split `tp` ways.
StepCost dense_mlp(const ModelConfig& m, const Roofline& rf, double tokens, int tp);
// Embedding gather of `tokens` rows.
OpCost embedding(const ModelConfig& m, const Roofline& rf, double tokens);
// Final RMSNorm + LM head (BF16, vocab split `tp` ways) for `tokens` tokens.
StepCost lm_head(const ModelConfig& m, const Roofline& rf, double tokens, int tp);

}  // namespace pdsim

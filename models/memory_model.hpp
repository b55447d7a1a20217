#pragma once
// Memory model: weights per GPU under TP/PP/EP/DP-attention, KV bytes per token by dtype
// (MLA latent + rope part + indexer keys), DeepEP low-latency buffers (DeepEP's published
// layout formula), and SGLang's mem-fraction-static rule → KV pool → token capacity.
// An infeasible layout throws InfeasibleError.
#include <string>

#include "models/compute_model.hpp"

namespace pdsim {

struct ParallelLayout {
  int gpus = 1;  // GPUs in the instance
  int tp = 1;    // attention TP (1 under DP attention)
  int pp = 1;
  int ep = 1;
  int dp_attention = 1;  // DP-attention ranks (replicated attention weights)
  int moe_dense_tp = 1;  // TP of the dense MLP layers (1 = replicated)
  int cp = 1;            // context-parallel ranks (NSA prefill CP): attention weights replicated
  bool mtp = false;      // draft (MTP) layer resident
  int ll_max_dispatch_tokens_per_rank = 0;  // >0: DeepEP low-latency buffers allocated
  bool normal_a2a_buffers = false;          // DeepEP normal-mode buffers allocated
  double normal_a2a_buffer_bytes = 0;       // their size (from the deployment config)
  double mem_fraction_static = 0.9;
};

struct MemoryPlan {
  double weights_bytes = 0;       // per GPU (the most loaded GPU)
  double a2a_buffer_bytes = 0;    // per GPU
  double kv_bytes_per_token = 0;  // per GPU holding the token (all layers resident there)
  double kv_pool_bytes = 0;       // per GPU
  double kv_capacity_tokens = 0;  // per GPU (per DP rank under DP attention)
  Json breakdown;                 // named terms, for the result's provenance block
};

// KV bytes per token for the whole model (all layers): latent + rope + indexer keys (+ scales).
double kv_bytes_per_token(const ModelConfig& m, KvDtype dtype);
// DeepEP low-latency buffer bytes per rank (dispatch/combine send+recv+signal, double-buffered).
double deepep_ll_buffer_bytes(int max_tokens_per_rank, int hidden, int num_ranks, int num_experts);
double weights_bytes_per_gpu(const ModelConfig& m, const ParallelLayout& l);
// The whole model once (all layers, MTP layers, embedding, LM head): compare with the checkpoint.
double total_weight_bytes(const ModelConfig& m);
// Attention TP implied by a layout: tp / (dp_attention · cp), or 1 (throws InfeasibleError when
// tp is neither 1 nor a multiple of dp_attention · cp).
int attention_tp(const ParallelLayout& l);

// Throws InfeasibleError if weights + buffers do not fit, or EP does not divide the experts.
MemoryPlan plan_memory(const ModelConfig& m, const GpuSpec& gpu, const ParallelLayout& l,
                       KvDtype dtype);

}  // namespace pdsim

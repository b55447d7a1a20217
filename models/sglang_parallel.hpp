#pragma once
// One serving role's parallelism as SGLang defines it: the launch flags, the adjustments SGLang
// makes to them on its own, the rules it refuses a combination by, and the process groups that
// result. Source: SGLang 0.5.6.post1 (server_args.py, layers/dp_attention.py,
// distributed/parallel_state.py, model_executor/model_runner.py, models/deepseek_v2.py); the
// rules with their file and line are in docs/research/sglang-parallel-rules.md. The
// communication each decoder layer issues under a layout is models/layer_comms.hpp.
//
// Only what SGLang itself refuses is refused here, each error naming SGLang's rule; what pdsim
// does not model yet is the deployment's business (sim/serve/cost/deployment.cpp).
#include <optional>
#include <string>
#include <vector>

#include "models/model_config.hpp"

namespace pdsim {

// The flags of one `sglang.launch_server` command line that shape parallelism.
struct SglangParallelFlags {
  int tp = 1, dp = 1, ep = 1, pp = 1, nnodes = 1;  // --tp-size --dp-size --ep-size ...
  bool dp_attention = false;                       // --enable-dp-attention
  bool dp_lm_head = false;                         // --enable-dp-lm-head
  std::string moe_a2a_backend = "none";            // --moe-a2a-backend: none | deepep | mooncake
  std::string deepep_mode = "auto";                // --deepep-mode: auto | normal | low_latency
  std::optional<int> moe_dense_tp;                 // --moe-dense-tp-size (unset = None)
  std::string speculative_algorithm;               // --speculative-algorithm ("" = none)
};

// The groups SGLang builds from them (parallel_state.py, dp_attention.py).
struct SglangParallel {
  SglangParallelFlags flags;   // after SGLang's own adjustments
  int gpus = 1;                // tp × pp
  int attn_tp = 1;             // attention TP group: tp / dp with DP attention, else tp
  int attn_dp = 1;             // DP-attention groups (dp with DP attention, else 1)
  int moe_ep = 1, moe_tp = 1;  // MoE: experts split ep ways, each expert's FFN moe_tp ways
  int dense_tp = 1;            // dense-layer MLP: 1 (replicated, --moe-dense-tp-size 1) or tp
  int lm_head_tp = 1;          // LM-head vocab split: attn_tp with --enable-dp-lm-head, else tp
  bool embedding_replicated = false;     // DP attention: input embedding replicated, no collective
  bool moe_a2a = false;                  // MoE tokens move by all-to-all (deepep, mooncake)
  bool cuda_graph_disabled = false;      // --deepep-mode normal disables CUDA graphs
  std::vector<std::string> adjustments;  // what SGLang changed, in its words
};

// Applies SGLang's adjustments and rules for `model`. InputError(file, "<role>.<flag>") naming
// the rule for a combination SGLang refuses.
SglangParallel resolve_sglang_parallel(const SglangParallelFlags& flags, const ModelConfig& model,
                                       const std::string& file, const std::string& role);

}  // namespace pdsim

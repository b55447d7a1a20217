#pragma once
// The collectives one forward issues under an SGLang layout (models/sglang_parallel.hpp),
// derived the way SGLang's LayerCommunicator does (layers/communicator.py): each decoder layer's
// attention runs with its DP group's tokens on the attention-TP group (TP_ATTN_FULL); its MLP
// wants them SCATTERED (MoE with an all-to-all backend; dense MLP with --moe-dense-tp-size 1) or
// FULL (every DP group's tokens on the whole TP group); the collectives are the transitions
// between these modes, plus the MoE's own all-reduce or all-to-all, the vocab-parallel
// embedding's all-reduce and the LM head's gathers (logits_processor.py). Under DP attention a
// FULL gather pads (MAX_LEN: every group to the largest) or sums (SUM_LEN) as
// dp_attention.py's padding mode picks. docs/research/sglang-parallel-rules.md §2 has the source
// lines.
//
// Sizes are nccl-tests' convention (collective_profile.hpp): the per-rank buffer of an
// all-reduce, the total (gathered) buffer of an all-gather or reduce-scatter; activations BF16
// (2 bytes per element), logits too (the hidden dtype; assumption).
#include <string>
#include <vector>

#include "models/model_config.hpp"
#include "models/sglang_parallel.hpp"

namespace pdsim {

struct CommOp {
  std::string step;   // embedding | prepare_attn | prepare_mlp | mlp | postprocess | lm_head
  std::string layer;  // "moe", "dense" or "" (embedding, LM head)
  std::string op;     // all_reduce | all_gather | reduce_scatter | all_to_all
  std::string group;  // tp | attn_tp | ep
  int ranks = 1;      // group size
  double bytes = 0;   // nccl-tests convention; all_to_all: tokens per rank × hidden × 2
  int count = 0;      // times per forward
  bool operator==(const CommOp&) const = default;
};

struct ForwardComms {
  std::string padding;  // "sum_len" or "max_len" under DP attention with a FULL MLP, else ""
  std::vector<int> group_tokens;  // each DP group's tokens, rounded up to a multiple of attn_tp
  int moe_tokens_per_rank = 0;    // tokens each rank's experts see (FULL: all; SCATTERED: its own)
  std::vector<CommOp> ops;        // identical ops of different layers merged, in forward order
};

// `tokens`: each DP-attention group's tokens this forward (one entry without DP attention);
// `lm_tokens`: each group's tokens whose logits are computed (the last token of each request in
// prefill, every token in decode). `extend`: a prefill (extend) batch in any group; `cuda_graph`:
// a decode forward replayed from a CUDA graph (always MAX_LEN padding).
ForwardComms forward_comms(const SglangParallel& p, const ModelConfig& model,
                           const std::vector<int>& tokens, const std::vector<int>& lm_tokens,
                           bool extend, bool cuda_graph);

}  // namespace pdsim

#include "models/sglang_parallel.hpp"

#include "sim/core/error.hpp"

namespace pdsim {

namespace {

std::string n(int v) {
  return std::to_string(v);
}

}  // namespace

SglangParallel resolve_sglang_parallel(const SglangParallelFlags& given, const ModelConfig& model,
                                       const std::string& file, const std::string& role) {
  SglangParallel r;
  SglangParallelFlags f = given;
  const auto refuse = [&](const std::string& flag, const std::string& what) {
    throw InputError(file, role + " " + flag, what);
  };
  if (f.tp < 1 || f.dp < 1 || f.ep < 1 || f.pp < 1 || f.nnodes < 1)
    refuse("--tp-size", "--tp-size, --dp-size, --ep-size, --pp-size and --nnodes >= 1");
  if (f.moe_a2a_backend != "none" && f.moe_a2a_backend != "deepep" &&
      f.moe_a2a_backend != "mooncake")
    refuse("--moe-a2a-backend", "none, deepep or mooncake, got \"" + f.moe_a2a_backend + "\"");
  if (f.deepep_mode != "auto" && f.deepep_mode != "normal" && f.deepep_mode != "low_latency")
    refuse("--deepep-mode", "auto, normal or low_latency, got \"" + f.deepep_mode + "\"");

  // _handle_data_parallelism: dp 1 turns DP attention (and the DP LM head) off.
  if (f.dp == 1 && (f.dp_attention || f.dp_lm_head)) {
    f.dp_attention = false;
    f.dp_lm_head = false;
    r.adjustments.push_back("--dp-size 1: DP attention and the DP LM head are off");
  }
  if (f.dp_attention && f.tp % f.dp != 0)
    refuse("--dp-size",
           "a divisor of --tp-size with --enable-dp-attention (server_args.py "
           "_handle_data_parallelism asserts tp_size % dp_size == 0), got --tp-size " +
               n(f.tp) + " --dp-size " + n(f.dp));
  if (f.dp_lm_head && !f.dp_attention)
    refuse("--enable-dp-lm-head",
           "--enable-dp-attention with it (server_args.py: \"Please enable dp attention when "
           "setting enable_dp_lm_head\")");
  // check_server_args: DP without DP attention is independent replicas, one node only.
  if (f.dp > 1 && !f.dp_attention && f.nnodes != 1)
    refuse("--dp-size",
           "1 across nodes without --enable-dp-attention (check_server_args: "
           "\"multi-node data parallel is not supported unless dp attention!\")");
  if (f.moe_dense_tp && *f.moe_dense_tp != 1)
    refuse("--moe-dense-tp-size",
           "1 or unset (check_server_args: \"moe_dense_tp_size only "
           "support 1 and None currently\"), got " +
               n(*f.moe_dense_tp));
  if ((f.tp * f.pp) % f.nnodes != 0)
    refuse("--nnodes",
           "a divisor of tp × pp (check_server_args: \"tp_size must be divisible by "
           "number of nodes\"), got tp " +
               n(f.tp) + " × pp " + n(f.pp) + " on " + n(f.nnodes) + " nodes");
  if (f.pp > 1 && !f.speculative_algorithm.empty())
    refuse("--pp-size",
           "1 with speculative decoding (check_server_args: \"Pipeline parallelism "
           "is not compatible with overlap schedule, speculative decoding, mixed "
           "chunked prefill.\")");
  if (f.dp_attention &&
      (f.speculative_algorithm == "STANDALONE" || f.speculative_algorithm == "NGRAM"))
    refuse("--speculative-algorithm",
           "EAGLE, EAGLE3 or NEXTN with DP attention (server_args.py: \"Currently " +
               std::string(f.speculative_algorithm == "NGRAM" ? "ngram" : "standalone") +
               " speculative decoding does not support dp attention.\")");
  // _handle_a2a_moe: an all-to-all backend sets ep = tp.
  if (f.moe_a2a_backend != "none") {
    if (f.ep != f.tp)
      r.adjustments.push_back("--moe-a2a-backend " + f.moe_a2a_backend + ": --ep-size " + n(f.ep) +
                              " adjusted to the tensor parallel size " + n(f.tp));
    f.ep = f.tp;
    if (f.moe_a2a_backend == "deepep" && f.deepep_mode == "normal") {
      r.cuda_graph_disabled = true;
      r.adjustments.push_back("--deepep-mode normal: CUDA graphs are disabled");
    }
  }
  if (model.is_moe()) {
    // DeepseekV2MoE: "Tensor parallel size {tp} is greater than the number of experts {n}."
    if (f.tp > model.n_routed_experts)
      refuse("--tp-size", "at most the " + n(model.n_routed_experts) +
                              " routed experts (deepseek_v2.py: \"Tensor parallel size is greater "
                              "than the number of experts\"), got " +
                              n(f.tp));
    // ModelRunner.check_quantized_moe_compatibility (block-quantized weights) and FusedMoE.
    if (f.tp % f.ep != 0)
      refuse("--ep-size",
             "a divisor of --tp-size (model_runner.py: \"tp_size must be divisible "
             "by ep_size\"), got tp " +
                 n(f.tp) + " ep " + n(f.ep));
    if (model.n_routed_experts % f.ep != 0)
      refuse("--ep-size", "a divisor of the " + n(model.n_routed_experts) +
                              " routed experts (FusedMoE asserts num_experts % moe_ep_size == 0), "
                              "got " +
                              n(f.ep));
    const int moe_tp = f.tp / f.ep;
    if (model.moe_intermediate % moe_tp != 0)
      refuse("--ep-size", "tp / ep dividing moe_intermediate_size " + n(model.moe_intermediate) +
                              " (model_runner.py: \"must be divisible by moe_tp_size\"), got " +
                              n(moe_tp));
    if (model.weight_dtype == "fp8" && (model.moe_intermediate / moe_tp) % model.weight_block != 0)
      refuse("--ep-size", "moe_intermediate_size / (tp / ep) a multiple of the FP8 block " +
                              n(model.weight_block) +
                              " (model_runner.py, quantized MoE: \"fix this by setting arguments "
                              "--tp and --ep correctly\"), got " +
                              n(model.moe_intermediate) + " / " + n(moe_tp));
  }
  r.flags = f;
  r.gpus = f.tp * f.pp;
  r.attn_dp = f.dp_attention ? f.dp : 1;
  r.attn_tp = f.tp / r.attn_dp;
  // MLA splits heads over the attention TP group (DeepseekV2AttentionMLA asserts divisibility).
  if (model.num_heads % r.attn_tp != 0)
    refuse("--tp-size", "an attention TP size (tp / dp = " + n(r.attn_tp) + ") dividing the " +
                            n(model.num_heads) + " attention heads");
  r.moe_ep = model.is_moe() ? f.ep : 1;
  r.moe_tp = model.is_moe() ? f.tp / f.ep : 1;
  r.dense_tp = (f.moe_dense_tp && *f.moe_dense_tp == 1) ? 1 : f.tp;
  r.lm_head_tp = f.dp_lm_head ? r.attn_tp : f.tp;
  r.embedding_replicated = f.dp_attention;
  r.moe_a2a = f.moe_a2a_backend != "none";
  return r;
}

}  // namespace pdsim

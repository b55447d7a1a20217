#include "sim/serve/cost/layout_checks.hpp"

#include <string>
#include <vector>

#include "models/layer_comms.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/cost/role_layout.hpp"

namespace pdsim {
namespace {

// The collectives of one representative forward that cross nodes (all-to-alls aside).
std::vector<CommOp> cross_node_ops(const SglangParallel& l, const ModelConfig& m, int gpn,
                                   bool extend) {
  const std::vector<int> tokens(static_cast<size_t>(l.attn_dp), l.attn_tp);
  std::vector<CommOp> out;
  for (const auto& op : forward_comms(l, m, tokens, tokens, extend, false).ops)
    if (op.op != "all_to_all" && op.ranks > gpn) out.push_back(op);
  return out;
}

void need_collective_profile(const Scenario& s, const std::string& role,
                             const std::vector<CommOp>& ops) {
  if (ops.empty() || !s.fabric.collective_profile.empty()) return;
  throw InputError(s.file, "fabric.collective_profile",
                   "a collective profile (models/profiles/collective): the " + role +
                       " layout runs " + ops.front().op + " over " +
                       std::to_string(ops.front().ranks) + " GPUs across nodes (group " +
                       ops.front().group + ", " + ops.front().step + ")");
}

}  // namespace

void check_prefill(const Scenario& s, const ModelConfig& m, const InstanceType& inst,
                   const SglangParallel& l, const std::optional<NormalRdmaRates>& rdma) {
  const auto& p = s.prefill;
  const int gpus = p.nodes_per_instance * inst.gpus_per_node;
  auto bad = [&](const std::string& why) { throw InfeasibleError("prefill: " + why); };
  if (p.tp * p.pp != gpus)
    bad("tp × pp = " + std::to_string(p.tp * p.pp) + " but the instance has " +
        std::to_string(gpus) + " GPUs (" + std::to_string(p.nodes_per_instance) + " nodes × " +
        std::to_string(inst.gpus_per_node) + ")");
  if (p.cp > p.tp || p.tp % p.cp != 0) bad("cp must divide tp");
  if (!p.dp_attention && p.dp != 1)
    throw InputError(s.file, "prefill.dp",
                     "1 without DP attention (independent DP replicas are separate instances: "
                     "set prefill.instances)");
  if (p.dp_attention && (p.cp != 1 || p.pp != 1))
    throw InputError(s.file, p.cp != 1 ? "prefill.cp" : "prefill.pp",
                     "1 with DP attention (DP attention with context or pipeline parallelism is "
                     "not modelled)");
  if (p.cp > 1 && p.tp > inst.gpus_per_node)
    bad("tp " + std::to_string(p.tp) + " spans nodes with cp " + std::to_string(p.cp) +
        "; context parallelism is modelled inside one node only");
  if (m.is_moe() && l.moe_a2a && p.ep > inst.gpus_per_node && (!rdma || rdma->ranks != p.ep))
    bad("ep " + std::to_string(p.ep) + " spans nodes with the DeepEP backend; backend '" +
        prefill_a2a_backend(s) + "' of fabric profile '" + s.fabric.profile +
        (rdma ? "' has normal-mode rates across nodes for EP " + std::to_string(rdma->ranks) +
                    " only"
              : "' has no normal-mode rates across nodes") +
        " (a2a." + prefill_a2a_backend(s) +
        ".normal_*_rdma_GBps; moe_a2a_backend none runs the MoE as an all-reduce)");
  if (m.is_moe() && l.moe_a2a && p.ep != p.tp)
    throw InputError(
        s.file, "prefill.ep",
        "ep = tp (" + std::to_string(p.tp) + ") with moe_a2a_backend deepep: SGLang sets it so");
  if (p.pp > m.num_layers) bad("pp exceeds the number of layers");
  if (p.cp == 1)
    need_collective_profile(s, "prefill", cross_node_ops(l, m, inst.gpus_per_node, true));
}

void check_decode(const Scenario& s, const ModelConfig& m, const InstanceType& inst,
                  const SglangParallel& l) {
  const auto& d = s.decode;
  const int gpus = d.nodes_per_instance * inst.gpus_per_node;
  auto bad = [&](const std::string& why) { throw InfeasibleError("decode: " + why); };
  if (d.tp != gpus)
    bad("tp " + std::to_string(d.tp) + " must equal the instance's GPUs (" + std::to_string(gpus) +
        ")");
  if (d.dp_attention) {
    if (l.attn_tp != 1)
      throw InputError(s.file, "decode.dp",
                       "dp = tp (" + std::to_string(d.tp) +
                           ") with DP attention: attention TP groups inside DP ranks (dp < tp) "
                           "are not modelled yet");
    // SGLang's ParallelLMHead(use_attn_tp_group = enable_dp_lm_head): with dp = tp the group is
    // one GPU, the full-vocab head the cost model has; off, the vocab is split over TP behind a
    // gather of every DP rank's hidden states, which is not costed.
    if (!d.enable_dp_lm_head)
      throw InputError(s.file, "decode.enable_dp_lm_head",
                       "expected true with DP attention (the vocab-parallel LM head of DP "
                       "attention without --enable-dp-lm-head is not modelled yet)");
  } else if (d.dp != 1) {
    throw InputError(s.file, "decode.dp",
                     "1 without DP attention (independent DP replicas are separate instances: "
                     "set decode.instances)");
  }
  if (m.is_moe() && l.moe_a2a && d.ep != d.tp)
    throw InputError(
        s.file, "decode.ep",
        "ep = tp (" + std::to_string(d.tp) + ") with moe_a2a_backend deepep: SGLang sets it so");
  need_collective_profile(s, "decode", cross_node_ops(l, m, inst.gpus_per_node, false));
}

}  // namespace pdsim

#include "models/layer_comms.hpp"

#include <algorithm>
#include <numeric>

#include "sim/core/error.hpp"

namespace pdsim {

namespace {

constexpr double kActBytes = 2;  // BF16 activations and logits

enum class Mode { kScattered, kAttnFull, kFull };

// Appends `op`, or counts it once more when the forward already has an identical one.
void add(std::vector<CommOp>& ops, CommOp op) {
  op.count = 1;
  for (auto& o : ops) {
    if (o.step == op.step && o.layer == op.layer && o.op == op.op && o.group == op.group &&
        o.ranks == op.ranks && o.bytes == op.bytes) {
      ++o.count;
      return;
    }
  }
  ops.push_back(op);
}

}  // namespace

ForwardComms forward_comms(const SglangParallel& p, const ModelConfig& m,
                           const std::vector<int>& tokens, const std::vector<int>& lm_tokens,
                           bool extend, bool cuda_graph) {
  const bool dpa = p.attn_dp > 1;
  if (static_cast<int>(tokens.size()) != p.attn_dp ||
      static_cast<int>(lm_tokens.size()) != p.attn_dp)
    throw InputError("<layout>", "tokens",
                     "one token count per DP-attention group (" + std::to_string(p.attn_dp) + ")");
  ForwardComms out;
  // forward_batch_info.py: with a gathered buffer (DP attention, or a scattered MLP) each group's
  // count is rounded up to a multiple of attn_tp.
  const int align = (dpa || p.moe_a2a || p.dense_tp == 1) ? p.attn_tp : 1;
  for (int t : tokens) {
    if (t < 0) throw InputError("<layout>", "tokens", "token counts >= 0");
    out.group_tokens.push_back((t + align - 1) / align * align);
  }
  const double sum = std::accumulate(out.group_tokens.begin(), out.group_tokens.end(), 0.0);
  const double max_len = *std::max_element(out.group_tokens.begin(), out.group_tokens.end());
  const double dp = p.attn_dp;
  // dp_attention.py: any extend → SUM_LEN; graphs → MAX_LEN; else MAX_LEN if it pads < 2×.
  const bool max_pad = !extend && (cuda_graph || sum * 2 > max_len * dp);
  const double h = m.hidden * kActBytes;
  const int tp = p.flags.tp, atp = p.attn_tp;
  // The FULL batch: every group's tokens (padded under MAX_LEN); without DP attention, the batch.
  const double full_tokens = dpa ? (max_pad ? max_len * dp : sum) : sum;
  auto& ops = out.ops;
  const auto op = [&](const char* step, const std::string& layer, const char* kind,
                      const char* group, int ranks, double bytes) {
    if (ranks > 1) add(ops, {step, layer, kind, group, ranks, bytes, 0});
  };
  if (!p.embedding_replicated) op("embedding", "", "all_reduce", "tp", tp, sum * h);

  Mode in = Mode::kAttnFull;  // the embedding's output
  bool full_used = false;
  for (int l = 0; l < m.num_layers; ++l) {
    const bool moe = m.is_moe_layer(l);
    const std::string layer = moe ? "moe" : "dense";
    const bool scattered = moe ? p.moe_a2a : p.dense_tp == 1;
    const bool last = l + 1 == m.num_layers;
    // prepare_attn: a scattered input is gathered back within the attention-TP group.
    if (in == Mode::kScattered)
      op("prepare_attn", layer, "all_gather", "attn_tp", atp, max_len * h);
    if (scattered) {
      // prepare_mlp: attention's partial sums reduce-scattered within the attention-TP group.
      op("prepare_mlp", layer, "reduce_scatter", "attn_tp", atp, max_len * h);
      if (moe) {
        out.moe_tokens_per_rank = static_cast<int>(max_len) / atp;
        op("mlp", layer, "all_to_all", "ep", p.moe_ep, out.moe_tokens_per_rank * h);
      }
      in = Mode::kScattered;
      if (last) {
        op("postprocess", layer, "all_gather", "attn_tp", atp, max_len * h);
        in = Mode::kAttnFull;
      }
      continue;
    }
    full_used = true;
    if (moe) out.moe_tokens_per_rank = static_cast<int>(full_tokens);
    if (!dpa) {
      // Plain TP: attention's partial sums and the MLP's (MoE: experts or expert shards) reduced.
      op("prepare_mlp", layer, "all_reduce", "tp", tp, sum * h);
      op("mlp", layer, "all_reduce", "tp", tp, sum * h);
    } else if (!max_pad) {
      // SUM_LEN: every group's tokens placed in one buffer and all-reduced over TP (the gather);
      // the MLP's all-reduce; then each group copies its slice (no collective).
      op("prepare_mlp", layer, "all_reduce", "tp", tp, sum * h);
      op("mlp", layer, "all_reduce", "tp", tp, sum * h);
    } else {
      // MAX_LEN: reduce-scatter within attn-TP (if any), all-gather over TP; the MLP's reduction
      // as a reduce-scatter over TP, then an all-gather within attn-TP.
      op("prepare_mlp", layer, "reduce_scatter", "attn_tp", atp, max_len * h);
      op("prepare_mlp", layer, "all_gather", "tp", tp, max_len * dp * h);
      op("postprocess", layer, "reduce_scatter", "tp", tp, max_len * dp * h);
      op("postprocess", layer, "all_gather", "attn_tp", atp, max_len * h);
    }
    in = Mode::kAttnFull;
  }
  if (dpa && full_used) out.padding = max_pad ? "max_len" : "sum_len";

  // LM head (logits_processor.py).
  const double lm_sum = std::accumulate(lm_tokens.begin(), lm_tokens.end(), 0.0);
  const double lm_max = *std::max_element(lm_tokens.begin(), lm_tokens.end());
  const double v = m.vocab * kActBytes;
  if (dpa && p.flags.dp_lm_head) {
    op("lm_head", "", "all_gather", "attn_tp", atp, lm_max * v);
  } else if (dpa) {
    op("lm_head", "", "all_reduce", "tp", tp, lm_sum * h);  // dp_gather_replicate, SUM_LEN
    op("lm_head", "", "all_gather", "tp", tp, lm_sum * v);
  } else {
    op("lm_head", "", "all_gather", "tp", tp, lm_sum * v);
  }
  return out;
}

}  // namespace pdsim

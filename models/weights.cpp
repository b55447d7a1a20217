// Weight bytes per GPU. Linear layers in the model's dtype (FP8: 1 B + an FP32 scale per 128×128
// tile; BF16: 2 B); norms, router gate, embedding and LM head in BF16.
// Placement (SGLang): attention q_a / kv_a / indexer / norms replicated, q_b / kv_b / o_proj
// (GQA: q, k, v, o) split over attention TP = tp / (dp_attention · cp); dense MLP split over
// moe_dense_tp; routed experts split over EP; shared experts and router replicated; embedding and
// LM head vocab-split over attention TP; PP gives stage s layers [s·L/pp, (s+1)·L/pp), the
// embedding to the first stage and the final norm + LM head (+ MTP layer) to the last. The MTP
// draft layer shares the target's embedding and LM head (SGLang EAGLE for DeepSeek NextN).
#include <algorithm>

#include "models/memory_model.hpp"
#include "models/roofline.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

struct AttnBytes {
  double replicated = 0, split = 0;
};

AttnBytes attention_bytes(const ModelConfig& m) {
  const double h = m.hidden, H = m.num_heads;
  AttnBytes a;
  a.replicated = 2 * h * kBf16Bytes;  // input + post-attention RMSNorm
  if (m.is_mla()) {
    const double r = m.kv_lora_rank, dr = m.qk_rope_dim, dn = m.qk_nope_dim, dv = m.v_head_dim;
    const double ql = m.q_lora_rank;
    a.replicated += model_linear_bytes(m, r + dr, h) + r * kBf16Bytes;  // kv_a + its norm
    if (ql > 0) {
      a.replicated += model_linear_bytes(m, ql, h) + ql * kBf16Bytes;  // q_a + its norm
      a.split += model_linear_bytes(m, H * (dn + dr), ql);             // q_b
    } else {
      a.split += model_linear_bytes(m, H * (dn + dr), h);  // q_proj
    }
    a.split += model_linear_bytes(m, H * (dn + dv), r);  // kv_b
    a.split += model_linear_bytes(m, h, H * dv);         // o_proj
    if (m.has_indexer()) {
      const double ih = m.index_heads, id = m.index_dim;
      a.replicated += linear_weight_bytes(ih * id, ql > 0 ? ql : h, true, m.weight_block);  // wq_b
      a.replicated += linear_weight_bytes(id, h, true, m.weight_block);                     // wk
      a.replicated += 2 * id * kBf16Bytes;  // k_norm (LayerNorm weight + bias)
      a.replicated += ih * h * kBf16Bytes;  // weights_proj
    }
  } else {
    const double hd = m.head_dim;
    a.split += model_linear_bytes(m, (H + 2.0 * m.num_kv_heads) * hd, h);  // q, k, v
    a.split += model_linear_bytes(m, h, H * hd);                           // o_proj
    a.replicated += 2 * hd * kBf16Bytes;                                   // q_norm, k_norm
  }
  return a;
}

double expert_bytes(const ModelConfig& m, double inter) {
  // gate and up [inter × h] and down [h × inter], quantized as separate matrices.
  return 2 * model_linear_bytes(m, inter, m.hidden) + model_linear_bytes(m, m.hidden, inter);
}

struct LayerBytes {
  double attention = 0, dense_mlp = 0, routed = 0, shared = 0, router = 0;
  double total() const { return attention + dense_mlp + routed + shared + router; }
};

LayerBytes layer_bytes(const ModelConfig& m, bool moe_layer, int attn_tp, int ep, int dense_tp) {
  AttnBytes a = attention_bytes(m);
  LayerBytes b;
  b.attention = a.replicated + a.split / attn_tp;
  if (!moe_layer) {
    b.dense_mlp = expert_bytes(m, m.dense_intermediate) / dense_tp;
  } else {
    b.routed = static_cast<double>(m.n_routed_experts / ep) * expert_bytes(m, m.moe_intermediate);
    b.shared = m.n_shared_experts * expert_bytes(m, m.moe_intermediate);
    b.router = static_cast<double>(m.n_routed_experts) * m.hidden * kBf16Bytes;
  }
  return b;
}

double table_bytes(const ModelConfig& m) {
  return double(m.vocab) * m.hidden * kBf16Bytes;
}

// MTP block beyond its transformer layer: enorm, hnorm, shared-head norm, eh_proj [h × 2h].
double mtp_extra_bytes(const ModelConfig& m) {
  return 3.0 * m.hidden * kBf16Bytes + model_linear_bytes(m, m.hidden, 2.0 * m.hidden);
}

}  // namespace

int attention_tp(const ParallelLayout& l) {
  const int group = l.dp_attention * l.cp;
  if (l.tp == 1) return 1;
  if (l.tp % group != 0)
    throw InfeasibleError("tp " + std::to_string(l.tp) +
                          " is not a multiple of dp_attention × cp = " + std::to_string(group));
  return l.tp / group;
}

double weights_bytes_per_gpu(const ModelConfig& m, const ParallelLayout& l) {
  if (l.tp < 1 || l.pp < 1 || l.ep < 1 || l.dp_attention < 1 || l.moe_dense_tp < 1 || l.cp < 1)
    throw InfeasibleError("tp, pp, ep, dp_attention, moe_dense_tp and cp must all be >= 1");
  if (l.pp > m.num_layers)
    throw InfeasibleError("pp " + std::to_string(l.pp) + " exceeds the model's " +
                          std::to_string(m.num_layers) + " layers");
  if (m.is_moe() && m.n_routed_experts % l.ep != 0)
    throw InfeasibleError("EP " + std::to_string(l.ep) + " does not divide the " +
                          std::to_string(m.n_routed_experts) + " routed experts of " + m.name);
  const int atp = attention_tp(l);
  double worst = 0;
  for (int s = 0; s < l.pp; ++s) {
    const int first = s * m.num_layers / l.pp, last = (s + 1) * m.num_layers / l.pp;
    double bytes = 0;
    for (int i = first; i < last; ++i)
      bytes += layer_bytes(m, m.is_moe_layer(i), atp, l.ep, l.moe_dense_tp).total();
    if (s == 0) bytes += table_bytes(m) / atp;
    if (s == l.pp - 1) {
      bytes += m.hidden * kBf16Bytes;                                    // final norm
      if (!m.tie_embeddings || l.pp > 1) bytes += table_bytes(m) / atp;  // LM head
      if (l.mtp && m.mtp_layers > 0)
        bytes += m.mtp_layers * (layer_bytes(m, m.is_moe(), atp, l.ep, l.moe_dense_tp).total() +
                                 mtp_extra_bytes(m));
    }
    worst = std::max(worst, bytes);
  }
  return worst;
}

double total_weight_bytes(const ModelConfig& m) {
  double bytes = 0;
  for (int i = 0; i < m.num_layers; ++i)
    bytes += layer_bytes(m, m.is_moe_layer(i), 1, 1, 1).total();
  bytes += m.mtp_layers * (layer_bytes(m, m.is_moe(), 1, 1, 1).total() + mtp_extra_bytes(m));
  bytes += table_bytes(m) * (m.tie_embeddings ? 1 : 2) + m.hidden * kBf16Bytes;
  return bytes;
}

}  // namespace pdsim

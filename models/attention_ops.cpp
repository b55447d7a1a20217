// Attention block of one layer on one GPU: MLA (absorbed in decode; in prefill absorbed when the
// DSA indexer is present, as the NSA backend does, else MHA over K/V expanded by kv_b_proj),
// the DSA lightning indexer, GQA. Notation: T = query tokens on this GPU, h = hidden, H = heads
// on this GPU (num_heads / attn_tp), c = a request's cached tokens, q = its new tokens,
// r = kv_lora_rank, d_r = qk_rope_dim, d_n = qk_nope_dim, d_v = v_head_dim, K = index_topk.
// Causal pairs of a request, Σ_{i=1..q} (c + i) = qc + q(q+1)/2; with DSA each query token
// attends only min(c + i, K) of them. CP round-robin gives every CP rank 1/cp of the pairs.
// Efficiency lookups: attention_decode at the mean cached context c, attention_prefill at the
// chunk's new tokens Σ q, indexer_scan (decode) or indexer_prefill (prefill, where the profile has
// it) at the mean keys scanned per request (c + q).
#include <algorithm>
#include <cmath>

#include "models/compute_ops.hpp"
#include "models/kv_layout.hpp"

namespace pdsim {
namespace {

double dense_pairs(const AttnRequest& r) {
  return r.query * r.context + r.query * (r.query + 1) / 2;
}

// Σ_{i=1..q} min(c + i, K): the first n1 = clamp(K − c, 0, q) tokens see c + i, the rest K.
double sparse_pairs(const AttnRequest& r, double topk) {
  double n1 = std::clamp(topk - r.context, 0.0, r.query);
  return n1 * r.context + n1 * (n1 + 1) / 2 + (r.query - n1) * topk;
}

OpCost norm(const Roofline& rf, const char* name, double tokens, double width, double tensors) {
  // Fused (residual add +) RMSNorm: read and write `tensors` BF16 activations of tokens × width;
  // ~4 flops per element (square, sum, scale, weight).
  return rf.stream(name, "other", 4 * tokens * width, tensors * 2 * tokens * width * kBf16Bytes);
}

struct Totals {
  double dense = 0, sparse = 0, keys = 0, query = 0;  // Σ pairs, Σ (c + q), Σ q
  double context = 0, mean_keys = 0;                  // mean c, mean (c + q)
};

Totals totals(const ModelConfig& m, const AttnShape& s) {
  Totals t;
  for (const auto& r : s.requests) {
    t.dense += dense_pairs(r);
    t.sparse += m.has_indexer() ? sparse_pairs(r, m.index_topk) : dense_pairs(r);
    t.keys += r.context + r.query;
    t.query += r.query;
    t.context += r.context;
  }
  if (!s.requests.empty()) {
    t.context /= static_cast<double>(s.requests.size());
    t.mean_keys = t.keys / static_cast<double>(s.requests.size());
  }
  return t;
}

// DSA lightning indexer: projections of the query tokens, then the scan — every query token
// scores every earlier token with index_heads × index_dim FP8 dot products (2·IH·ID flops per
// pair), reading each request's FP8 index keys once and writing + re-reading FP32 logits for the
// top-K selection (4 B × 2 per pair).
void indexer(const ModelConfig& m, const Roofline& rf, const AttnShape& s, const Totals& t,
             StepCost& out) {
  double T = s.tokens(), ih = m.index_heads, id = m.index_dim;
  const int blk = m.weight_block;
  out.add(rf.gemm("indexer.q_proj", "attention", T, ih * id, m.q_lora_rank, true, blk));
  out.add(rf.gemm("indexer.k_proj", "attention", T, id, m.hidden, true, blk));
  out.add(rf.gemm("indexer.weights_proj", "attention", T, ih, m.hidden, false, blk));
  double pairs = t.dense / s.cp;
  double bytes = t.keys * indexer_kv_bytes_per_token_layer(m) + pairs * kFp32Bytes * 2;
  // A prefill chunk's logits are a compute-bound FP8 GEMM per request, not decode's key stream.
  const GpuProfile& p = rf.profile();
  const bool prefill_curve = !s.decode && !p.indexer_prefill.x.empty();
  out.add(rf.op("indexer.scan", "attention", 2 * ih * id * pairs, bytes, Roofline::Peak::fp8,
                prefill_curve ? p.indexer_prefill : p.indexer_scan, t.mean_keys));
}

void mla(const ModelConfig& m, const Roofline& rf, KvDtype kv, const AttnShape& s, StepCost& out) {
  const double T = s.tokens(), h = m.hidden, H = m.num_heads / s.attn_tp;
  const double r = m.kv_lora_rank, dr = m.qk_rope_dim, dn = m.qk_nope_dim, dv = m.v_head_dim;
  const bool fp8 = m.weight_dtype == "fp8";
  const int blk = m.weight_block;
  Totals t = totals(m, s);
  // q_a / kv_a (replicated across attention TP), their RMSNorms, q_b (heads split).
  if (m.q_lora_rank > 0) {
    out.add(rf.gemm("mla.q_a_proj", "attention", T, m.q_lora_rank, h, fp8, blk));
    out.add(rf.gemm("mla.q_b_proj", "attention", T, H * (dn + dr), m.q_lora_rank, fp8, blk));
  } else {
    out.add(rf.gemm("mla.q_proj", "attention", T, H * (dn + dr), h, fp8, blk));
  }
  out.add(rf.gemm("mla.kv_a_proj", "attention", T, r + dr, h, fp8, blk));
  out.add(norm(rf, "mla.q_kv_a_norm", T, m.q_lora_rank + r, 2));
  if (m.has_indexer()) indexer(m, rf, s, t, out);

  const double kv_tok = attention_kv_bytes_per_token_layer(m, kv);
  const double kv_write = T * (kv_tok + indexer_kv_bytes_per_token_layer(m));
  const bool absorbed = s.decode || m.has_indexer();
  if (absorbed) {
    // W_UK absorption: per head q_nope[T×d_n] · W_UK[d_n×r] → T×H×r; weights H·d_n·r.
    double wuk = H * model_linear_bytes(m, dn, r);
    out.add(rf.op("mla.absorb_uk", "attention", 2 * T * H * dn * r,
                  wuk + T * H * (dn + r) * kBf16Bytes,
                  fp8 ? Roofline::Peak::fp8 : Roofline::Peak::bf16,
                  fp8 ? rf.profile().gemm_fp8 : rf.profile().gemm_bf16, T));
    // MQA over the latent: per pair and head, QK over r + d_r and PV over r (BF16 math).
    // KV bytes: dense decode reads each request's cache once for all its query tokens; sparse
    // (DSA) gathers the top-K rows separately for every query token (pairs × row bytes), plus
    // the int32 indices. Query in (r + d_r) and output (r) per head in BF16.
    double pairs = (m.has_indexer() ? t.sparse : t.dense) / s.cp;
    double kv_read = m.has_indexer() ? pairs * kv_tok : t.keys * kv_tok;
    double idx = m.has_indexer() ? T * m.index_topk * 4.0 : 0.0;
    double qo = T * H * (2 * r + dr) * kBf16Bytes;
    out.add(rf.op("mla.attention", "attention", 2 * H * (2 * r + dr) * pairs,
                  kv_read + idx + qo + kv_write, Roofline::Peak::bf16,
                  s.decode ? rf.profile().attention_decode : rf.profile().attention_prefill,
                  s.decode ? t.context : t.query));
    // W_UV: per head o_latent[T×r] · W_UV[r×d_v].
    double wuv = H * model_linear_bytes(m, r, dv);
    out.add(rf.op("mla.absorb_uv", "attention", 2 * T * H * r * dv,
                  wuv + T * H * (r + dv) * kBf16Bytes,
                  fp8 ? Roofline::Peak::fp8 : Roofline::Peak::bf16,
                  fp8 ? rf.profile().gemm_fp8 : rf.profile().gemm_bf16, T));
  } else {
    // MHA prefill: kv_b_proj expands every cached + new token's latent to K_nope and V for the
    // local heads, then causal attention with QK over d_n + d_r and PV over d_v.
    out.add(rf.gemm("mla.kv_b_proj", "attention", t.keys, H * (dn + dv), r, fp8, blk));
    double pairs = t.dense / s.cp;
    double kv_read = t.keys * H * (dn + dr + dv) * kBf16Bytes;
    double qo = T * H * (dn + dr + dv) * kBf16Bytes;
    out.add(rf.op("mla.attention", "attention", 2 * H * (dn + dr + dv) * pairs,
                  kv_read + qo + kv_write, Roofline::Peak::bf16, rf.profile().attention_prefill,
                  t.query));
  }
  out.add(rf.gemm("mla.o_proj", "attention", T, h, H * dv, fp8, blk));
}

void gqa(const ModelConfig& m, const Roofline& rf, KvDtype kv, const AttnShape& s, StepCost& out) {
  const double T = s.tokens(), h = m.hidden, H = m.num_heads / s.attn_tp;
  const double KVH = std::max(1.0, m.num_kv_heads / s.attn_tp), hd = m.head_dim;
  const bool fp8 = m.weight_dtype == "fp8";
  const int blk = m.weight_block;
  Totals t = totals(m, s);
  out.add(rf.gemm("gqa.qkv_proj", "attention", T, (H + 2 * KVH) * hd, h, fp8, blk));
  // Per pair and head: QK and PV over head_dim. KV read once per request (all heads of a group
  // share it); the local KV heads only.
  double kv_tok = attention_kv_bytes_per_token_layer(m, kv) * KVH / m.num_kv_heads;
  double pairs = t.dense / s.cp;
  double bytes = t.keys * kv_tok + T * kv_tok + 2 * T * H * hd * kBf16Bytes;
  out.add(rf.op("gqa.attention", "attention", 4 * H * hd * pairs, bytes, Roofline::Peak::bf16,
                s.decode ? rf.profile().attention_decode : rf.profile().attention_prefill,
                s.decode ? t.context : t.query));
  out.add(rf.gemm("gqa.o_proj", "attention", T, h, H * hd, fp8, blk));
}

}  // namespace

double AttnShape::tokens() const {
  double q = 0;
  for (const auto& r : requests) q += r.query;
  return q / cp;
}

StepCost attention_block(const ModelConfig& m, const Roofline& rf, KvDtype kv, const AttnShape& s,
                         bool with_router) {
  StepCost out;
  const double T = s.tokens();
  out.add(norm(rf, "attn.input_norm", T, m.hidden, 4));
  if (m.is_mla())
    mla(m, rf, kv, s, out);
  else
    gqa(m, rf, kv, s, out);
  out.add(norm(rf, "attn.post_norm", T, m.hidden, 4));
  if (with_router) {
    // Router gate (BF16 weights, n_routed_experts × hidden) on the tokens this GPU sends into the
    // MoE block (attention-TP ranks split them).
    out.add(rf.gemm("moe.router_gate", "moe_compute", T / s.attn_tp, m.n_routed_experts, m.hidden,
                    false, m.weight_block));
  }
  return out;
}

}  // namespace pdsim

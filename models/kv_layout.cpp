#include "models/kv_layout.hpp"

#include <cmath>

#include "models/roofline.hpp"

namespace pdsim {

double attention_kv_bytes_per_token_layer(const ModelConfig& m, KvDtype dtype) {
  if (m.is_mla()) {
    double latent = m.kv_lora_rank, rope = m.qk_rope_dim;
    if (dtype == KvDtype::bf16) return (latent + rope) * kBf16Bytes;
    if (m.has_indexer())
      return latent * kFp8Bytes + std::ceil(latent / 128.0) * kFp32Bytes + rope * kBf16Bytes;
    return (latent + rope) * kFp8Bytes;
  }
  double elem = dtype == KvDtype::bf16 ? kBf16Bytes : kFp8Bytes;
  return 2.0 * m.num_kv_heads * m.head_dim * elem;
}

double indexer_kv_bytes_per_token_layer(const ModelConfig& m) {
  if (!m.has_indexer()) return 0;
  return m.index_dim * kFp8Bytes + std::ceil(m.index_dim / 128.0) * kFp32Bytes;
}

}  // namespace pdsim

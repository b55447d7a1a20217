#pragma once
// Bytes one token occupies in one layer's KV cache, by cache dtype.
#include "models/compute_model.hpp"

namespace pdsim {

// Attention KV of one token in one layer.
//  MLA: the compressed latent (kv_lora_rank) + the decoupled rope key (qk_rope_dim).
//    bf16: (kv_lora + rope) × 2 B.
//    fp8 with the DSA indexer (NSA backend, FlashMLA sparse FP8 layout, DeepSeek-V3.2): latent in
//      FP8 with one FP32 scale per 128 channels, rope part kept BF16:
//      kv_lora × 1 + kv_lora/128 × 4 + rope × 2 (= 656 B for 512/64, the layout FlashMLA
//      publishes for V3.2).
//    fp8 without the indexer: (kv_lora + rope) × 1 B (per-tensor scale).
//  GQA: K and V of every KV head: 2 × kv_heads × head_dim × (2 | 1) B.
double attention_kv_bytes_per_token_layer(const ModelConfig& m, KvDtype dtype);
// DSA lightning-indexer key cache, independent of the KV dtype: FP8 key of index_dim plus one
// FP32 scale per 128 channels (132 B for index_dim 128); 0 without an indexer.
double indexer_kv_bytes_per_token_layer(const ModelConfig& m);

}  // namespace pdsim

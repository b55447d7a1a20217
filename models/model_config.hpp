#pragma once
// An LLM architecture from the catalog (models/catalog/llm/NAME.json, Hugging Face field names).
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct ModelConfig {
  std::string name;       // catalog name, e.g. "glm-5.1-fp8"
  std::string hf_id;      // e.g. "zai-org/GLM-5.1-FP8"
  int num_layers = 0;     // num_hidden_layers
  int first_k_dense = 0;  // first_k_dense_replace (all layers dense when n_routed_experts == 0)
  int hidden = 0;         // hidden_size
  int dense_intermediate = 0;  // intermediate_size
  int moe_intermediate = 0;    // moe_intermediate_size
  int n_routed_experts = 0;
  int n_shared_experts = 0;
  int top_k = 0;  // num_experts_per_tok
  int vocab = 0;
  std::string attention;  // "mla" or "gqa"
  int num_heads = 0;
  // MLA (attention == "mla")
  int q_lora_rank = 0;  // 0 = no q compression
  int kv_lora_rank = 0;
  int qk_nope_dim = 0, qk_rope_dim = 0, v_head_dim = 0;
  // GQA (attention == "gqa")
  int num_kv_heads = 0, head_dim = 0;
  // DeepSeek sparse attention indexer; index_topk == 0 means dense attention.
  int index_heads = 0, index_dim = 0, index_topk = 0;
  int mtp_layers = 0;  // num_nextn_predict_layers
  int max_context = 0;
  std::string weight_dtype;     // "fp8" (block-scaled) or "bf16"
  int weight_block = 128;       // FP8 block-scale tile edge
  double checkpoint_bytes = 0;  // published size on disk, for cross-checking the memory model
  bool tie_embeddings = false;  // tie_word_embeddings (LM head shares the embedding matrix)
  Json provenance;

  bool is_moe() const { return n_routed_experts > 0; }
  int num_moe_layers() const { return is_moe() ? num_layers - first_k_dense : 0; }
  int num_dense_layers() const { return num_layers - num_moe_layers(); }
  bool is_mla() const { return attention == "mla"; }
  bool has_indexer() const { return index_topk > 0; }
  bool is_moe_layer(int layer) const { return is_moe() && layer >= first_k_dense; }
};

// `name_or_path`: catalog name or a JSON file path. Errors name `from_file` and `field`.
ModelConfig load_model(const std::string& name_or_path, const std::string& from_file = "",
                       const std::string& field = "model");
ModelConfig parse_model(const JsonNode& node);

}  // namespace pdsim

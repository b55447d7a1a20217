#include "models/model_config.hpp"

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {
namespace {

int int_field(const JsonNode& n, std::string_view key, bool required_positive) {
  if (required_positive) return static_cast<int>(n.at(key).positive_integer());
  if (!n.has(key)) return 0;
  JsonNode v = n.at(key);
  int64_t x = v.integer();
  if (x < 0) v.fail("expected a non-negative integer, got " + std::to_string(x));
  return static_cast<int>(x);
}

}  // namespace

ModelConfig parse_model(const JsonNode& n) {
  n.expect_only({"schema",
                 "name",
                 "hf_id",
                 "num_layers",
                 "first_k_dense",
                 "hidden",
                 "dense_intermediate",
                 "moe_intermediate",
                 "n_routed_experts",
                 "n_shared_experts",
                 "top_k",
                 "vocab",
                 "attention",
                 "num_heads",
                 "q_lora_rank",
                 "kv_lora_rank",
                 "qk_nope_dim",
                 "qk_rope_dim",
                 "v_head_dim",
                 "num_kv_heads",
                 "head_dim",
                 "index_heads",
                 "index_dim",
                 "index_topk",
                 "mtp_layers",
                 "max_context",
                 "weight_dtype",
                 "weight_block",
                 "tie_embeddings",
                 "checkpoint_bytes",
                 "provenance"});
  if (n.at("schema").string() != "pdsim.model/1") n.at("schema").fail("expected \"pdsim.model/1\"");
  ModelConfig m;
  m.name = n.at("name").string();
  m.hf_id = n.str_or("hf_id", "");
  m.num_layers = int_field(n, "num_layers", true);
  m.first_k_dense = int_field(n, "first_k_dense", false);
  m.hidden = int_field(n, "hidden", true);
  m.dense_intermediate = int_field(n, "dense_intermediate", false);
  m.moe_intermediate = int_field(n, "moe_intermediate", false);
  m.n_routed_experts = int_field(n, "n_routed_experts", false);
  m.n_shared_experts = int_field(n, "n_shared_experts", false);
  m.top_k = int_field(n, "top_k", false);
  m.vocab = int_field(n, "vocab", true);
  m.attention = n.at("attention").string();
  m.num_heads = int_field(n, "num_heads", true);
  m.q_lora_rank = int_field(n, "q_lora_rank", false);
  m.kv_lora_rank = int_field(n, "kv_lora_rank", false);
  m.qk_nope_dim = int_field(n, "qk_nope_dim", false);
  m.qk_rope_dim = int_field(n, "qk_rope_dim", false);
  m.v_head_dim = int_field(n, "v_head_dim", false);
  m.num_kv_heads = int_field(n, "num_kv_heads", false);
  m.head_dim = int_field(n, "head_dim", false);
  m.index_heads = int_field(n, "index_heads", false);
  m.index_dim = int_field(n, "index_dim", false);
  m.index_topk = int_field(n, "index_topk", false);
  m.mtp_layers = int_field(n, "mtp_layers", false);
  m.max_context = int_field(n, "max_context", true);
  m.weight_dtype = n.at("weight_dtype").string();
  m.weight_block = n.has("weight_block") ? int_field(n, "weight_block", true) : 128;
  m.tie_embeddings = n.bool_or("tie_embeddings", false);
  m.checkpoint_bytes = n.has("checkpoint_bytes") ? n.at("checkpoint_bytes").non_negative() : 0;
  m.provenance = read_provenance(n.at("provenance"));

  // Cross-field checks: each names the field that breaks the rule.
  if (m.attention == "mla") {
    for (auto key : {"kv_lora_rank", "qk_nope_dim", "qk_rope_dim", "v_head_dim"})
      if (int_field(n, key, false) <= 0) n.at(key).fail("expected a positive integer for MLA");
  } else if (m.attention == "gqa") {
    int kvh = int_field(n, "num_kv_heads", true);
    int_field(n, "head_dim", true);
    if (m.num_heads % kvh != 0)
      n.at("num_kv_heads")
          .fail("expected a divisor of num_heads (" + std::to_string(m.num_heads) + ")");
  } else {
    n.at("attention").fail("expected \"mla\" or \"gqa\", got \"" + excerpt(m.attention) + "\"");
  }
  if (m.weight_dtype != "fp8" && m.weight_dtype != "bf16")
    n.at("weight_dtype")
        .fail("expected \"fp8\" or \"bf16\", got \"" + excerpt(m.weight_dtype) + "\"");
  if (m.is_moe()) {
    if (m.moe_intermediate <= 0)
      n.at("moe_intermediate").fail("expected a positive integer for a MoE model");
    if (m.top_k <= 0 || m.top_k > m.n_routed_experts)
      n.at("top_k").fail("expected 1..n_routed_experts (" + std::to_string(m.n_routed_experts) +
                         ")");
    if (m.first_k_dense >= m.num_layers)
      n.at("first_k_dense").fail("expected fewer than num_layers");
  } else if (m.n_shared_experts > 0 || m.top_k > 0) {
    n.at("n_routed_experts")
        .fail("expected a positive integer when top_k or n_shared_experts is set");
  }
  if ((m.num_dense_layers() > 0) && m.dense_intermediate <= 0)
    n.at("dense_intermediate").fail("expected a positive integer (the model has dense layers)");
  if (m.index_topk > 0) {
    if (m.attention != "mla") n.at("index_topk").fail("expected 0: the sparse indexer needs MLA");
    if (m.index_heads <= 0)
      n.at("index_heads").fail("expected a positive integer when index_topk > 0");
    if (m.index_dim <= 0) n.at("index_dim").fail("expected a positive integer when index_topk > 0");
  }
  return m;
}

ModelConfig load_model(const std::string& name_or_path, const std::string& from_file,
                       const std::string& field) {
  return parse_model(load_named("models/catalog/llm", name_or_path, from_file, field));
}

}  // namespace pdsim

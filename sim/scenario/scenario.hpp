#pragma once
// A scenario: model + cluster + fabric + deployment (prefill, decode) + workload. Every field
// has a documented default (scenarios/README.md); `resolved_json()` writes all of them, and
// `--set dotted.path=value` overrides any path that exists in the resolved form.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "models/kv_dtype.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/scenario/tail_config.hpp"

namespace pdsim {

struct WorkloadConfig {
  std::string dataset = "random";  // bench_serving --dataset-name (only "random")
  int input_len = 1024;            // --random-input-len
  int output_len = 128;            // --random-output-len
  double range_ratio = 0.0;        // --random-range-ratio (bench_serving default 0.0)
  int num_prompts = 1000;
  double request_rate = std::numeric_limits<double>::infinity();  // req/s; inf = all at once
  int max_concurrency = 0;                                        // 0 = not set
};

struct SpeculativeConfig {
  std::string algorithm = "none";  // "none" | "eagle"
  int num_steps = 3;
  int topk = 1;
  int num_draft_tokens = 4;
  std::string acceptance_model = "chain-geometric";
  // Where the per-token acceptance probability comes from: the acceptance profile (default: the
  // one named after the model) for the workload's dataset, unless `accept_prob` overrides it.
  std::string acceptance_profile;     // "" = the model's name
  std::optional<double> accept_prob;  // a what-if override, with `acceptance_provenance`
  Json acceptance_provenance;
  bool enabled() const { return algorithm != "none"; }
};

struct PrefillConfig {
  int instances = 1;
  int nodes_per_instance = 2;
  int tp = 8, pp = 2, cp = 8, ep = 8;
  int chunked_prefill_size = 16384;
  int max_running_requests = 128;
  double mem_fraction_static = 0.85;
  std::string kv_transfer_backend = "mooncake";
  int kv_page_size = 64;      // tokens per KV page
  double kv_block_bytes = 0;  // 0 = one page of one layer (page_size × per-layer KV bytes)
  int kv_nics = 0;            // NICs per node used by KV transfer; 0 = all
  int kv_first_nic = 0;       // KV uses NICs [kv_first_nic, kv_first_nic + kv_nics)
};

struct DecodeConfig {
  int instances = 1;
  int nodes_per_instance = 2;
  int tp = 16, dp = 16, ep = 16;
  bool dp_attention = true;
  int max_running_requests = 256;
  double mem_fraction_static = 0.74;
  int cuda_graph_max_bs = 16;
  std::vector<int> cuda_graph_bs;  // empty = SGLang's default capture list ≤ cuda_graph_max_bs
  int ll_max_dispatch_tokens_per_rank = 128;
  KvDtype kv_cache_dtype = KvDtype::bf16;
  double scheduler_overhead_us = 0;   // per iteration, CPU time not hidden by overlap
  double recompute_tolerance = 0.01;  // re-cost a rank's attention when Σcontext grew this much
  int a2a_nics = 0;                   // NICs per node used by the all-to-all; 0 = all
  SpeculativeConfig speculative;
};

struct FabricConfig {
  std::string profile = "efa-p5en";
  std::string fidelity = "analytic";
  std::string a2a_backend = "cpu-proxy";
  int routing_samples = 4;  // routing draws averaged per all-to-all memo entry
  int packet_samples = 8;   // packet fidelity: phases simulated per background key
};

struct Scenario {
  std::string file;  // where it was read from (for messages)
  std::string name, description;
  std::string model = "glm-5.1-fp8";
  std::string gpu_profile = "h200-datasheet";
  std::string instance_type = "p5en.48xlarge";
  std::string network = "leaf-spine";  // packet fidelity: "leaf-spine" | "rail"
  std::string topology_file;  // describe-instance-topology JSON (placement); "" = one leaf per node
  std::string router_policy = "round-robin";
  std::string serving_profile = "sglang-0.5-pd";  // models/profiles/serving
  std::vector<std::string> profile_overlays;      // applied in order (profile_overlay.hpp)
  FabricConfig fabric;
  PrefillConfig prefill;
  DecodeConfig decode;
  WorkloadConfig workload;
  TailConfig tail;
  uint64_t seed = 1;

  Json resolved_json() const;
};

// Reads a scenario; `overrides` are "dotted.path=value" strings (value parsed as JSON, else
// taken as a string). Unknown paths and ill-typed values raise InputError.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});
Scenario parse_scenario(const JsonNode& node);
// Applies one override to a resolved scenario document (exposed for other JSON-driven tools).
void apply_override(Json& doc, const std::string& assignment, const std::string& file);

}  // namespace pdsim

#include "sim/scenario/scenario.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/path_name.hpp"
#include "sim/core/plugin_catalog.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {
namespace {

constexpr int64_t kMaxPrompts = 1'000'000;
constexpr double kMaxOutputTokens = 1e8;
constexpr double kMaxArrivalSpanS = 1e6;
constexpr int kMaxSamples = 10'000;

int pos_int(const JsonNode& n, std::string_view key, int def) {
  if (!n.has(key)) return def;
  int64_t v = n.at(key).positive_integer();
  if (v > (1 << 30)) n.at(key).fail("expected an integer below 2^30");
  return static_cast<int>(v);
}
int nonneg_int(const JsonNode& n, std::string_view key, int def) {
  if (!n.has(key)) return def;
  int64_t v = n.at(key).integer();
  if (v < 0 || v > (1 << 30))
    n.at(key).fail("expected a non-negative integer, got " + std::to_string(v));
  return static_cast<int>(v);
}
double nonneg(const JsonNode& n, std::string_view key, double def) {
  return n.has(key) ? n.at(key).non_negative() : def;
}
double frac(const JsonNode& n, std::string_view key, double def) {
  return n.has(key) ? n.at(key).fraction() : def;
}
std::string one_of(const JsonNode& n, std::string_view key, const std::string& def,
                   std::initializer_list<const char*> allowed) {
  if (!n.has(key)) return def;
  std::string v = n.at(key).string();
  std::string list;
  for (const char* a : allowed) {
    if (v == a) return v;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  n.at(key).fail("expected one of " + list + ", got \"" + excerpt(v) + "\"");
}

// A name of a registered family (the plug-in catalogue lists what is expected).
std::string registered(const char* family, const JsonNode& n, std::string_view key,
                       const std::string& def) {
  if (!n.has(key)) return def;
  std::string v = n.at(key).string();
  const auto& c = PluginCatalog::instance();
  if (!c.contains(family, v))
    n.at(key).fail("expected one of " + c.joined(family) + ", got \"" + excerpt(v) + "\"");
  return v;
}

WorkloadConfig parse_workload(const JsonNode& n) {
  n.expect_only({"dataset", "input_len", "output_len", "range_ratio", "num_prompts", "request_rate",
                 "max_concurrency"});
  WorkloadConfig w;
  w.dataset = one_of(n, "dataset", w.dataset, {"random"});
  w.input_len = pos_int(n, "input_len", w.input_len);
  w.output_len = pos_int(n, "output_len", w.output_len);
  w.range_ratio = frac(n, "range_ratio", w.range_ratio);
  w.num_prompts = pos_int(n, "num_prompts", w.num_prompts);
  if (n.has("request_rate")) {
    JsonNode r = n.at("request_rate");
    if (r.is_string()) {
      std::string s = r.string();
      if (s != "inf" && s != "Infinity")
        r.fail("expected a positive number or \"inf\", got \"" + excerpt(s) + "\"");
      w.request_rate = std::numeric_limits<double>::infinity();
    } else {
      w.request_rate = r.positive();
    }
  }
  // Bounds that keep a run's memory and simulated time finite (README "Inputs are bounded"): the
  // per-token ITL samples are kept, and the packet engine's clock is int64 picoseconds
  // (overflow at 9.2e6 s), so the mean arrival span num_prompts / request_rate is capped at 1e6 s.
  if (w.num_prompts > kMaxPrompts)
    n.at("num_prompts").fail("expected at most " + std::to_string(kMaxPrompts) + " prompts");
  if (static_cast<double>(w.num_prompts) * w.output_len > kMaxOutputTokens)
    n.at("output_len")
        .fail("expected num_prompts x output_len at most 1e8 tokens (each is a kept ITL sample)");
  if (w.num_prompts / w.request_rate > kMaxArrivalSpanS)
    n.at("request_rate")
        .fail("expected at least num_prompts / 1e6 s = " +
              std::to_string(w.num_prompts / kMaxArrivalSpanS) +
              " requests/s: the simulated horizon is bounded at 1e6 s (the packet clock is int64 "
              "picoseconds)");
  // Documented nullable (no limit), as bench_serving writes an unset --max-concurrency.
  if (n.has_nullable("max_concurrency"))
    w.max_concurrency = nonneg_int(n, "max_concurrency", w.max_concurrency);
  return w;
}

SpeculativeConfig parse_speculative(const JsonNode& n) {
  n.expect_only({"algorithm", "num_steps", "topk", "num_draft_tokens", "acceptance"});
  SpeculativeConfig s;
  s.algorithm = one_of(n, "algorithm", s.algorithm, {"none", "eagle"});
  s.num_steps = pos_int(n, "num_steps", s.num_steps);
  s.topk = pos_int(n, "topk", s.topk);
  s.num_draft_tokens = pos_int(n, "num_draft_tokens", s.num_draft_tokens);
  if (s.topk != 1) n.at("topk").fail("expected 1 (only chain drafts, topk 1, are modelled)");
  if (s.enabled() && s.num_draft_tokens != s.num_steps + 1)
    n.at("num_draft_tokens")
        .fail("expected num_steps + 1 (= " + std::to_string(s.num_steps + 1) +
              ") for a topk-1 chain draft");
  if (n.has("acceptance")) {
    JsonNode a = n.at("acceptance");
    a.expect_only({"model", "profile", "accept_prob", "provenance"});
    s.acceptance_model = one_of(a, "model", s.acceptance_model, {"chain-geometric"});
    s.acceptance_profile = a.str_or("profile", s.acceptance_profile);
    // Nullable: the resolved scenario writes null for "the profile's figure" / "none given".
    if (a.has_nullable("accept_prob")) s.accept_prob = a.at("accept_prob").fraction();
    if (a.has_nullable("provenance")) s.acceptance_provenance = read_provenance(a.at("provenance"));
  }
  return s;
}

PrefillConfig parse_prefill(const JsonNode& n) {
  n.expect_only({"instances", "nodes_per_instance", "tp", "pp", "cp", "ep", "chunked_prefill_size",
                 "max_running_requests", "mem_fraction_static", "kv_transfer_backend",
                 "kv_page_size", "kv_block_bytes", "kv_nics", "kv_first_nic"});
  PrefillConfig p;
  p.instances = pos_int(n, "instances", p.instances);
  p.nodes_per_instance = pos_int(n, "nodes_per_instance", p.nodes_per_instance);
  p.tp = pos_int(n, "tp", p.tp);
  p.pp = pos_int(n, "pp", p.pp);
  p.cp = pos_int(n, "cp", p.cp);
  p.ep = pos_int(n, "ep", p.ep);
  p.chunked_prefill_size = pos_int(n, "chunked_prefill_size", p.chunked_prefill_size);
  p.max_running_requests = pos_int(n, "max_running_requests", p.max_running_requests);
  p.mem_fraction_static = frac(n, "mem_fraction_static", p.mem_fraction_static);
  p.kv_transfer_backend =
      one_of(n, "kv_transfer_backend", p.kv_transfer_backend, {"mooncake", "nixl"});
  p.kv_page_size = pos_int(n, "kv_page_size", p.kv_page_size);
  p.kv_block_bytes = nonneg(n, "kv_block_bytes", p.kv_block_bytes);
  p.kv_nics = nonneg_int(n, "kv_nics", p.kv_nics);
  p.kv_first_nic = nonneg_int(n, "kv_first_nic", p.kv_first_nic);
  return p;
}

DecodeConfig parse_decode(const JsonNode& n) {
  n.expect_only({"instances", "nodes_per_instance", "tp", "dp", "ep", "dp_attention",
                 "max_running_requests", "mem_fraction_static", "cuda_graph_max_bs",
                 "cuda_graph_bs", "ll_max_dispatch_tokens_per_rank", "kv_cache_dtype",
                 "scheduler_overhead_us", "recompute_tolerance", "a2a_nics", "speculative"});
  DecodeConfig d;
  d.instances = pos_int(n, "instances", d.instances);
  d.nodes_per_instance = pos_int(n, "nodes_per_instance", d.nodes_per_instance);
  d.tp = pos_int(n, "tp", d.tp);
  d.dp = pos_int(n, "dp", d.dp);
  d.ep = pos_int(n, "ep", d.ep);
  d.dp_attention = n.bool_or("dp_attention", d.dp_attention);
  d.max_running_requests = pos_int(n, "max_running_requests", d.max_running_requests);
  d.mem_fraction_static = frac(n, "mem_fraction_static", d.mem_fraction_static);
  d.cuda_graph_max_bs = nonneg_int(n, "cuda_graph_max_bs", d.cuda_graph_max_bs);
  if (n.has("cuda_graph_bs")) {
    for (int64_t v : n.at("cuda_graph_bs").integers()) {
      if (v <= 0) n.at("cuda_graph_bs").fail("expected positive batch sizes");
      d.cuda_graph_bs.push_back(static_cast<int>(v));
    }
  }
  d.ll_max_dispatch_tokens_per_rank =
      pos_int(n, "ll_max_dispatch_tokens_per_rank", d.ll_max_dispatch_tokens_per_rank);
  if (n.has("kv_cache_dtype")) d.kv_cache_dtype = parse_kv_dtype(n.at("kv_cache_dtype"));
  d.scheduler_overhead_us = nonneg(n, "scheduler_overhead_us", d.scheduler_overhead_us);
  d.recompute_tolerance = frac(n, "recompute_tolerance", d.recompute_tolerance);
  d.a2a_nics = nonneg_int(n, "a2a_nics", d.a2a_nics);
  if (n.has("speculative")) d.speculative = parse_speculative(n.at("speculative"));
  return d;
}

FabricConfig parse_fabric(const JsonNode& n) {
  n.expect_only({"profile", "fidelity", "a2a_backend", "routing_samples", "packet_samples"});
  FabricConfig f;
  f.profile = n.str_or("profile", f.profile);
  f.fidelity = registered("fabric.fidelity", n, "fidelity", f.fidelity);
  f.a2a_backend = n.str_or("a2a_backend", f.a2a_backend);
  f.routing_samples = pos_int(n, "routing_samples", f.routing_samples);
  f.packet_samples = pos_int(n, "packet_samples", f.packet_samples);
  // Each sample is a full routing draw (or packet simulation) per distinct batch shape: run time
  // grows linearly, while the mean's standard error is already < 1 % of one draw's at 10^4.
  if (f.routing_samples > kMaxSamples)
    n.at("routing_samples").fail("expected at most " + std::to_string(kMaxSamples));
  if (f.packet_samples > kMaxSamples)
    n.at("packet_samples").fail("expected at most " + std::to_string(kMaxSamples));
  return f;
}

}  // namespace

Scenario parse_scenario(const JsonNode& n) {
  n.expect_only({"schema", "name", "description", "model", "gpu_profile", "serving_profile",
                 "profile_overlays", "cluster", "router", "fabric", "prefill", "decode", "workload",
                 "tail", "seed"});
  Scenario s;
  s.file = n.file();
  if (n.has("schema") && n.at("schema").string() != "pdsim.scenario/1")
    n.at("schema").fail("expected \"pdsim.scenario/1\"");
  // The name becomes the default output directory out/<name>: checked, or the file's stem.
  s.name = n.has("name") ? path_name(n.at("name")) : path_name_from_file(n.file(), "name");
  s.description = n.str_or("description", "");
  s.model = n.at("model").string();
  s.gpu_profile = n.str_or("gpu_profile", s.gpu_profile);
  s.serving_profile = n.str_or("serving_profile", s.serving_profile);
  if (n.has("profile_overlays")) {
    const JsonNode o = n.at("profile_overlays");
    if (!o.is_array()) o.fail("expected an array of overlay files");
    for (size_t i = 0; i < o.size(); ++i) s.profile_overlays.push_back(o.at(i).string());
  }
  JsonNode cluster = n.at("cluster");
  cluster.expect_only({"instance_type", "network", "topology_file"});
  s.instance_type = cluster.at("instance_type").string();
  s.network = one_of(cluster, "network", s.network, {"leaf-spine", "rail"});
  s.topology_file = cluster.str_or("topology_file", s.topology_file);
  // Checked at every fidelity (the analytic one does not read it): a named file must exist,
  // relative to the working directory or to the scenario (as sim/serve/cluster_fabric resolves it).
  if (!s.topology_file.empty()) {
    namespace fs = std::filesystem;
    const fs::path p(s.topology_file);
    std::error_code ec;
    const bool found =
        fs::is_regular_file(p, ec) ||
        (!p.is_absolute() && fs::is_regular_file(fs::path(n.file()).parent_path() / p, ec));
    if (!found)
      cluster.at("topology_file")
          .fail("an existing file (relative to the working directory or the scenario), got '" +
                excerpt(s.topology_file) + "'");
  }
  if (n.has("router")) {
    JsonNode r = n.at("router");
    r.expect_only({"policy"});
    s.router_policy = registered("router.policy", r, "policy", s.router_policy);
  }
  s.fabric = parse_fabric(n.at("fabric"));
  s.prefill = parse_prefill(n.at("prefill"));
  s.decode = parse_decode(n.at("decode"));
  s.workload = parse_workload(n.at("workload"));
  // Parsed when absent too: defaults of some mechanisms come from profile files.
  s.tail = parse_tail(n.has("tail") ? n.at("tail") : JsonNode::from_json(Json::object(), n.file()));
  if (n.has("seed")) {
    int64_t seed = n.at("seed").integer();
    if (seed < 0) n.at("seed").fail("expected a non-negative integer");
    s.seed = static_cast<uint64_t>(seed);
  }
  return s;
}

}  // namespace pdsim

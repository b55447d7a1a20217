#include "sim/fit/deployment_coordinates.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/core/error.hpp"
#include "sim/serve/cost/role_layout.hpp"

namespace pdsim {
namespace {

Coordinate cat(std::string key, std::string label, std::string v) {
  return {std::move(key), std::move(label), false, std::move(v), 0};
}
Coordinate num(std::string key, std::string label, double v) {
  return {std::move(key), std::move(label), true, "", v};
}

// "TP16 DP16 EP16, DP attention" as SGLang's groups have it: the parallelism, not the flags.
std::string layout(const SglangParallel& p, int pp) {
  std::string s = "TP" + std::to_string(p.flags.tp);
  if (p.attn_dp > 1) s += " DP" + std::to_string(p.attn_dp) + " (DP attention)";
  if (pp > 1) s += " PP" + std::to_string(pp);
  s += ", MoE " + (p.moe_ep > 1 ? "EP" + std::to_string(p.moe_ep) : std::string("TP")) +
       (p.moe_tp > 1 && p.moe_ep > 1 ? "xTP" + std::to_string(p.moe_tp) : "");
  return s;
}

// The MoE path: SGLang's backend and, when tokens move by all-to-all, the library under it.
std::string moe_path(const std::string& moe_a2a_backend, bool a2a, const std::string& library) {
  return a2a ? moe_a2a_backend + " over " + library : moe_a2a_backend + " (no all-to-all)";
}

// The keys a corpus file may hold, with their kinds: deployment_coordinates' order.
const std::vector<std::pair<std::string, bool>>& known_keys() {
  static const std::vector<std::pair<std::string, bool>> k = {
      {"model", false},         {"platform", false},        {"serving_stack", false},
      {"fabric", false},        {"prefill.layout", false},  {"prefill.moe_path", false},
      {"decode.layout", false}, {"decode.moe_path", false}, {"decode.a2a_nics_per_gpu", false},
      {"kv_transport", false},  {"speculative", false},     {"concurrency", true},
      {"input_len", true},      {"output_len", true},       {"decode.requests_per_rank", true}};
  return k;
}

const char* label_of(const std::string& key) {
  static const std::vector<std::pair<std::string, const char*>> l = {
      {"model", "model"},
      {"platform", "platform"},
      {"serving_stack", "serving stack"},
      {"fabric", "fabric profile"},
      {"prefill.layout", "prefill layout"},
      {"prefill.moe_path", "prefill MoE path"},
      {"decode.layout", "decode layout"},
      {"decode.moe_path", "decode MoE path"},
      {"decode.a2a_nics_per_gpu", "all-to-all NICs per decode GPU"},
      {"kv_transport", "KV transport"},
      {"speculative", "speculative decoding"},
      {"concurrency", "client concurrency"},
      {"input_len", "input length"},
      {"output_len", "output length"},
      {"decode.requests_per_rank", "decode requests per rank"}};
  for (const auto& [k, v] : l)
    if (k == key) return v;
  return "";
}

}  // namespace

std::string Coordinate::value() const {
  if (!numeric) return text;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", number);
  return buf;
}

Coordinates deployment_coordinates(const Deployment& d) {
  const Scenario& s = d.scenario;
  const WorkloadConfig& w = s.workload;
  // The client's cap on requests in flight: bench_serving's --max-concurrency, else every prompt.
  const double conc = w.max_concurrency > 0 ? std::min(w.max_concurrency, w.num_prompts)
                                            : static_cast<double>(w.num_prompts);
  const double ranks = static_cast<double>(s.decode.instances) * std::max(1, d.decode_ranks);
  const double per_rank = std::min(conc / ranks, static_cast<double>(d.max_requests_per_rank));
  std::string nics = "-";
  if (d.decode_layout.moe_a2a) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g",
                  static_cast<double>(d.a2a_nics) / std::max(1, d.instance.gpus_per_node));
    nics = buf;
  }
  std::string spec = s.decode.speculative.algorithm;
  if (s.decode.speculative.enabled())
    spec += " " + std::to_string(s.decode.speculative.num_steps) + " steps, " +
            std::to_string(s.decode.speculative.num_draft_tokens) + " draft tokens";
  Coordinates c = {
      cat("model", "", s.model),
      cat("platform", "", d.instance.name),
      cat("serving_stack", "", s.serving_profile),
      cat("fabric", "", s.fabric.profile),
      cat("prefill.layout", "", layout(d.prefill_layout, s.prefill.pp)),
      cat("prefill.moe_path", "",
          moe_path(s.prefill.moe_a2a_backend, d.prefill_layout.moe_a2a, prefill_a2a_backend(s))),
      cat("decode.layout", "", layout(d.decode_layout, 1)),
      cat("decode.moe_path", "",
          moe_path(s.decode.moe_a2a_backend, d.decode_layout.moe_a2a, s.fabric.a2a_backend)),
      cat("decode.a2a_nics_per_gpu", "", nics),
      cat("kv_transport", "", s.prefill.kv_transfer_backend + " " + s.prefill.kv_protocol),
      cat("speculative", "", spec),
      num("concurrency", "", conc),
      num("input_len", "", w.input_len),
      num("output_len", "", w.output_len),
      num("decode.requests_per_rank", "", per_rank),
  };
  for (auto& x : c) x.label = label_of(x.key);
  return c;
}

Json coordinates_json(const Coordinates& c) {
  Json j = Json::object();
  for (const auto& x : c) j[x.key] = x.numeric ? Json(x.number) : Json(x.text);
  return j;
}

std::vector<std::string> coordinate_keys() {
  std::vector<std::string> keys;
  for (const auto& [k, numeric] : known_keys()) keys.push_back(k);
  return keys;
}

Coordinates coordinates_from_json(const JsonNode& n) {
  n.expect_only(coordinate_keys());
  Coordinates c;
  for (const auto& [k, numeric] : known_keys()) {
    const JsonNode v = n.at(k);
    c.push_back(numeric ? num(k, label_of(k), v.number()) : cat(k, label_of(k), v.string()));
  }
  return c;
}

}  // namespace pdsim

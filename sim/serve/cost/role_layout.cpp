#include "sim/serve/cost/role_layout.hpp"

#include <filesystem>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/fabric/alltoall.hpp"

namespace pdsim {
namespace {

// SGLang's refusals name its flag; a scenario's reader wants the field it wrote. A layout SGLang
// refuses cannot run: InfeasibleError, so that a sweep records it and goes on.
SglangParallel resolve(const SglangParallelFlags& f, const ModelConfig& m, const Scenario& s,
                       const std::string& role) {
  static const std::map<std::string, std::string> field_of = {
      {"--tp-size", "tp"},
      {"--dp-size", "dp"},
      {"--ep-size", "ep"},
      {"--pp-size", "pp"},
      {"--nnodes", "nodes_per_instance"},
      {"--enable-dp-attention", "dp_attention"},
      {"--enable-dp-lm-head", "enable_dp_lm_head"},
      {"--moe-a2a-backend", "moe_a2a_backend"},
      {"--speculative-algorithm", "speculative.algorithm"}};
  try {
    return resolve_sglang_parallel(f, m, s.file, role);
  } catch (const InputError& e) {
    const std::string flag = e.field().substr(e.field().find(' ') + 1);
    const auto it = field_of.find(flag);
    if (it == field_of.end()) throw;
    // A layout SGLang refuses is infeasible (a sweep records it and goes on), named by field;
    // the file by its name only, so that a sweep's record does not depend on the machine.
    throw InfeasibleError(std::filesystem::path(e.file()).filename().string() + ": field '" + role +
                          "." + it->second + "': " + e.expected() + " [SGLang " + flag + "]");
  }
}

}  // namespace

SglangParallel decode_parallel(const Scenario& s, const ModelConfig& m) {
  const auto& d = s.decode;
  SglangParallelFlags f;
  f.tp = d.tp;
  f.dp = d.dp;
  f.ep = d.ep;
  f.nnodes = d.nodes_per_instance;
  f.dp_attention = d.dp_attention;
  f.dp_lm_head = d.enable_dp_lm_head;
  f.moe_a2a_backend = d.moe_a2a_backend;
  f.deepep_mode = "low_latency";
  if (d.dp_attention) f.moe_dense_tp = 1;
  f.speculative_algorithm = d.speculative.enabled() ? "EAGLE" : "";
  return resolve(f, m, s, "decode");
}

SglangParallel prefill_parallel(const Scenario& s, const ModelConfig& m) {
  const auto& p = s.prefill;
  SglangParallelFlags f;
  f.tp = p.tp;
  f.pp = p.pp;
  f.ep = p.ep;
  f.dp = p.dp;
  f.nnodes = p.nodes_per_instance;
  f.dp_attention = p.dp_attention;
  f.dp_lm_head = p.enable_dp_lm_head;
  f.moe_a2a_backend = p.moe_a2a_backend;
  f.deepep_mode = "normal";
  if (p.dp_attention) f.moe_dense_tp = 1;
  return resolve(f, m, s, "prefill");
}

std::string prefill_a2a_backend(const Scenario& s) {
  const std::string& b = s.prefill.a2a_backend;
  if (b.empty()) return s.fabric.a2a_backend;
  if (!A2ABackendRegistry::instance().contains(b))
    throw InputError(s.file, "prefill.a2a_backend",
                     "\"\" or a registered all-to-all backend (" +
                         A2ABackendRegistry::instance().names() + "), got \"" + excerpt(b) + "\"");
  return b;
}

}  // namespace pdsim

#include "sim/import/sglang_import.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/import/sglang_flags.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {
namespace {

using sglang::Flags;

constexpr const char* kMaxDispatchEnv = "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK";

// Collects what the import could not map, per role, for the "ignored" and "notes" fields.
struct Log {
  Json ignored = Json::array();
  Json notes = Json::array();
  void ignore(const std::string& role, const std::string& flag, const std::string& value,
              const std::string& reason) {
    ignored.push_back({{"role", role}, {"flag", flag}, {"value", value}, {"reason", reason}});
  }
  void note(const std::string& role, const std::string& text) {
    notes.push_back(role + ": " + text);
  }
};

Flags parse_role(const std::string& text, const std::string& what,
                 const std::vector<ArgSpec>& specs) {
  return Flags(parse_args(split_command_line(text, what), specs, what), what);
}

// Understood flags with their values as given (the record of what was imported), and the
// no-effect and unknown flags as ignored.
Json record_flags(const Flags& f, const std::string& role,
                  const std::vector<std::pair<std::string, std::string>>& no_effect, Log& log) {
  Json rec = Json::object();
  for (const auto& entry : f.args().values) {
    const std::string& flag = entry.first;
    const std::vector<std::string>& vals = entry.second;
    auto ne = std::find_if(no_effect.begin(), no_effect.end(),
                           [&](const auto& p) { return p.first == flag; });
    std::string joined;
    for (const auto& x : vals) joined += (joined.empty() ? "" : " ") + x;
    if (ne != no_effect.end()) {
      log.ignore(role, flag, joined, "no effect on the performance model (" + ne->second + ")");
      continue;
    }
    if (vals.empty())
      rec[flag] = true;
    else if (vals.size() == 1 && f.args().occurrences.at(flag) == 1)
      rec[flag] = vals.front();
    else
      rec[flag] = vals;
  }
  for (const auto& u : f.args().unknown) log.ignore(role, u.flag, u.value, "unknown to pdsim");
  for (const auto& [var, val] : f.args().env) {
    if (var == kMaxDispatchEnv) {
      rec[var] = val;
    } else {
      log.ignore(role, var, val, "environment variable unknown to pdsim");
    }
  }
  return rec;
}

void check_mode(const Flags& f, const std::string& role) {
  auto mode = f.choice("--disaggregation-mode", {"null", "prefill", "decode"});
  if (!mode)
    f.fail("--disaggregation-mode",
           "--disaggregation-mode " + role + " on the " + role + " command line");
  if (*mode != role)
    f.fail("--disaggregation-mode",
           "\"" + role + "\" on the " + role + " command line, got \"" + excerpt(*mode) + "\"");
}

// Expert parallel size as SGLang sets it: the DeepEP backend forces ep = tp.
int expert_parallel(const Flags& f, const std::string& backend, int tp, const std::string& role,
                    Log& log) {
  if (backend == "deepep") {
    if (auto ep = f.positive_int("--ep-size"); ep && *ep != tp)
      log.note(role, "--ep-size " + std::to_string(*ep) + " replaced by tp " + std::to_string(tp) +
                         " (SGLang sets ep = tp with the DeepEP backend)");
    return tp;
  }
  return f.positive_int("--ep-size").value_or(1);
}

template <typename T>
T or_default(const std::optional<T>& v, T def, const std::string& role, const std::string& flag,
             const std::string& why, Log& log) {
  if (v) return *v;
  log.note(role, flag + " not given: " + why);
  return def;
}

void common_checks(const Flags& f, const std::string& role, Log& log) {
  f.choice("--ep-dispatch-algorithm", {"static", "dynamic", "fake"});
  f.choice("--eplb-algorithm",
           {"auto", "deepseek", "deepseek_hierarchical", "deepseek_vec", "elasticity_aware"});
  if (f.has("--ep-dispatch-algorithm") || f.has("--eplb-algorithm") || f.on("--enable-eplb"))
    log.note(role,
             "expert placement flags recorded; pdsim assumes a balanced expert load (EPLB's goal)");
  if (auto d = f.positive_int("--moe-dense-tp-size"); d && *d != 1)
    f.fail("--moe-dense-tp-size",
           "1 (dense layers data-parallel, as SGLang supports), got " + std::to_string(*d));
  if (auto a = f.str("--attention-backend"); a && *a != "nsa")
    log.note(role, "--attention-backend " + *a +
                       " recorded; pdsim costs attention from the model's architecture");
}

Json import_prefill(const Flags& f, Log& log) {
  const std::string role = "prefill";
  check_mode(f, role);
  common_checks(f, role, log);
  const PrefillConfig def;
  Json p = Json::object();
  const int tp = f.positive_int("--tp-size").value_or(1);
  const int pp = f.positive_int("--pp-size").value_or(1);
  if (auto dp = f.positive_int("--dp-size"); dp && *dp != 1)
    f.fail("--dp-size", "1 on prefill (pdsim models one prefill group of tp × pp GPUs), got " +
                            std::to_string(*dp));
  const bool cp_on = f.on("--enable-nsa-prefill-context-parallel");
  if (cp_on) f.choice("--nsa-prefill-cp-mode", {"round-robin-split"});
  // NSA prefill CP makes SGLang use DeepEP (server_args: moe_a2a_backend = "deepep").
  std::string backend =
      f.choice("--moe-a2a-backend", {"none", "deepep"}).value_or(cp_on ? "deepep" : "none");
  if (backend == "deepep") f.choice("--deepep-mode", {"auto", "normal"});
  p["instances"] = 1;
  p["nodes_per_instance"] = f.positive_int("--nnodes").value_or(1);
  p["tp"] = tp;
  p["pp"] = pp;
  p["cp"] = cp_on ? tp : 1;  // attn_cp_size = tp_size / dp_size, dp 1
  p["ep"] = expert_parallel(f, backend, tp, role, log);
  p["chunked_prefill_size"] = or_default(f.positive_int("--chunked-prefill-size"),
                                         def.chunked_prefill_size, role, "--chunked-prefill-size",
                                         "SGLang picks it from GPU memory; pdsim default " +
                                             std::to_string(def.chunked_prefill_size) + " used",
                                         log);
  p["max_running_requests"] =
      or_default(f.positive_int("--max-running-requests"), def.max_running_requests, role,
                 "--max-running-requests",
                 "pdsim default " + std::to_string(def.max_running_requests) + " used", log);
  p["mem_fraction_static"] = or_default(f.fraction("--mem-fraction-static"),
                                        def.mem_fraction_static, role, "--mem-fraction-static",
                                        "SGLang picks it from GPU memory; pdsim default used", log);
  p["kv_transfer_backend"] =
      f.choice("--disaggregation-transfer-backend", {"mooncake", "nixl"}).value_or("mooncake");
  p["kv_page_size"] = f.positive_int("--page-size").value_or(64);  // SGLang forces 64 for NSA
  for (const char* flag : {"--cuda-graph-max-bs", "--speculative-algorithm"})
    if (f.has(flag))
      log.note(role, std::string(flag) + " recorded; it does not change the prefill model");
  return p;
}

Json import_speculative(const Flags& f, const std::string& role, Log& log) {
  const SpeculativeConfig def;
  Json s = Json::object();
  auto algo = f.choice("--speculative-algorithm", {"eagle", "nextn"}, /*lower=*/true);
  if (!algo) {
    s["algorithm"] = "none";
    return s;
  }
  s["algorithm"] = "eagle";  // SGLang runs NEXTN as EAGLE with the model's MTP layer
  const std::string why = "SGLang picks it per model; pdsim default used";
  s["num_steps"] = or_default(f.positive_int("--speculative-num-steps"), def.num_steps, role,
                              "--speculative-num-steps", why, log);
  const int topk = or_default(f.positive_int("--speculative-eagle-topk"), def.topk, role,
                              "--speculative-eagle-topk", why, log);
  if (topk != 1)
    f.fail("--speculative-eagle-topk",
           "1 (only chain drafts are modelled), got " + std::to_string(topk));
  s["topk"] = topk;
  s["num_draft_tokens"] =
      or_default(f.positive_int("--speculative-num-draft-tokens"), def.num_draft_tokens, role,
                 "--speculative-num-draft-tokens", why, log);
  log.note(role,
           "speculative.acceptance is not a launch flag: the scenario's acceptance model and its "
           "provenance apply");
  return s;
}

Json import_decode(const Flags& f, Log& log) {
  const std::string role = "decode";
  check_mode(f, role);
  common_checks(f, role, log);
  const DecodeConfig def;
  Json d = Json::object();
  const int tp = f.positive_int("--tp-size").value_or(1);
  const std::string backend = f.choice("--moe-a2a-backend", {"none", "deepep"}).value_or("none");
  if (backend == "deepep") f.choice("--deepep-mode", {"auto", "low_latency"});
  if (f.on("--enable-nsa-prefill-context-parallel"))
    log.note(role, "--enable-nsa-prefill-context-parallel has no effect on decode");
  d["instances"] = 1;
  d["nodes_per_instance"] = f.positive_int("--nnodes").value_or(1);
  d["tp"] = tp;
  d["dp"] = f.positive_int("--dp-size").value_or(1);
  d["ep"] = expert_parallel(f, backend, tp, role, log);
  d["dp_attention"] = f.on("--enable-dp-attention");
  if (f.on("--enable-dp-lm-head"))
    log.note(role, "--enable-dp-lm-head: the LM head is costed per DP rank (vocab not split)");
  d["max_running_requests"] =
      or_default(f.positive_int("--max-running-requests"), def.max_running_requests, role,
                 "--max-running-requests",
                 "pdsim default " + std::to_string(def.max_running_requests) + " used", log);
  d["mem_fraction_static"] = or_default(f.fraction("--mem-fraction-static"),
                                        def.mem_fraction_static, role, "--mem-fraction-static",
                                        "SGLang picks it from GPU memory; pdsim default used", log);
  if (f.on("--disable-cuda-graph")) {
    d["cuda_graph_max_bs"] = 0;
  } else {
    d["cuda_graph_max_bs"] =
        or_default(f.nonneg_int("--cuda-graph-max-bs"), def.cuda_graph_max_bs, role,
                   "--cuda-graph-max-bs", "SGLang picks it per GPU; pdsim default used", log);
  }
  if (f.has("--cuda-graph-bs")) d["cuda_graph_bs"] = f.positive_ints("--cuda-graph-bs");
  int max_dispatch = def.ll_max_dispatch_tokens_per_rank;  // SGLang's default is 128 as well
  if (auto it = f.args().env.find(kMaxDispatchEnv); it != f.args().env.end()) {
    char* end = nullptr;
    const long long x = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || x <= 0 || x > (1 << 30))
      f.fail(kMaxDispatchEnv, "a positive integer, got \"" + excerpt(it->second) + "\"");
    max_dispatch = static_cast<int>(x);
  }
  d["ll_max_dispatch_tokens_per_rank"] = max_dispatch;
  const std::string kv =
      f.choice("--kv-cache-dtype", {"auto", "bf16", "bfloat16", "fp8_e4m3", "fp8_e5m2"})
          .value_or("auto");
  d["kv_cache_dtype"] = kv.rfind("fp8", 0) == 0 ? "fp8" : "bf16";
  if (f.has("--chunked-prefill-size"))
    log.note(role, "--chunked-prefill-size recorded; decode does not prefill in PD mode");
  if (f.has("--disaggregation-transfer-backend"))
    f.choice("--disaggregation-transfer-backend", {"mooncake", "nixl"});
  d["speculative"] = import_speculative(f, role, log);
  return d;
}

Json import_router(const std::string& text, int& prefill_instances, int& decode_instances,
                   Json& record, Log& log) {
  Json r = {{"policy", "round-robin"}};
  if (text.empty()) {
    log.note("router", "no router command line: one prefill and one decode instance");
    return r;
  }
  Flags f = parse_role(text, "--router", sglang::router_specs());
  record = record_flags(f, "router", sglang::router_no_effect(), log);
  auto count = [&](const std::string& flag) {
    auto it = f.args().occurrences.find(flag);
    return it == f.args().occurrences.end() ? 0 : it->second;
  };
  if (count("--prefill") > 0) prefill_instances = count("--prefill");
  if (count("--decode") > 0) decode_instances = count("--decode");
  for (const char* flag : {"--policy", "--prefill-policy", "--decode-policy"})
    f.choice(flag, {"round_robin"});
  if (f.on("--mini-lb") && (prefill_instances > 1 || decode_instances > 1))
    log.note("router",
             "--mini-lb picks prefill/decode pairs at random; pdsim assigns them round-robin");
  return r;
}

std::string catalog_model(const Flags& f, Log& log) {
  auto path = f.str("--model-path");
  if (!path) return "";
  std::string name = std::filesystem::path(*path).filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!name.empty() &&
      std::filesystem::exists(data_root() + "/models/catalog/llm/" + name + ".json"))
    return name;
  log.note("model", "--model-path " + *path +
                        " matches no entry of models/catalog/llm; set \"model\" yourself");
  return "";
}

}  // namespace

Json import_sglang(const SglangCommandLines& lines) {
  Log log;
  Flags pf = parse_role(lines.prefill, "--prefill", sglang::server_specs());
  Flags df = parse_role(lines.decode, "--decode", sglang::server_specs());
  Json out = Json::object();
  out["schema"] = "pdsim.deployment-import/1";
  out["source"] = {{"tool", "sglang launch_server / sglang_router"},
                   {"prefill", lines.prefill},
                   {"decode", lines.decode},
                   {"router", lines.router}};
  Json sg = Json::object();
  sg["prefill"] = record_flags(pf, "prefill", sglang::server_no_effect(), log);
  sg["decode"] = record_flags(df, "decode", sglang::server_no_effect(), log);
  out["prefill"] = import_prefill(pf, log);
  out["decode"] = import_decode(df, log);
  int np = 1, nd = 1;
  Json router_rec = Json::object();
  out["router"] = import_router(lines.router, np, nd, router_rec, log);
  sg["router"] = router_rec;
  out["prefill"]["instances"] = np;
  out["decode"]["instances"] = nd;
  const std::string pm = catalog_model(pf, log), dm = catalog_model(df, log);
  if (!pm.empty() && pm == dm) out["model"] = pm;
  const auto pbe = pf.str("--disaggregation-transfer-backend"),
             dbe = df.str("--disaggregation-transfer-backend");
  if (pbe && dbe && *pbe != *dbe)
    throw InputError("--decode", "--disaggregation-transfer-backend",
                     "the prefill's backend \"" + *pbe + "\", got \"" + excerpt(*dbe) + "\"");
  out["sglang"] = sg;
  out["ignored"] = log.ignored;
  out["notes"] = log.notes;
  return out;
}

Json deployment_sections(const Json& imported) {
  Json out = Json::object();
  for (const char* k : {"model", "router", "prefill", "decode"})
    if (imported.contains(k)) out[k] = imported.at(k);
  return out;
}

}  // namespace pdsim

#include "sim/import/sglang_import.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/import/fabric_env.hpp"
#include "sim/import/sglang_flags.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/sglang_fields.hpp"

namespace pdsim {
namespace {

using sglang::Flags;

// Collects what the import could not map, per role, for the "ignored" and "notes" fields.
struct Log {
  Json ignored = Json::array();
  Json notes = Json::array();
  void ignore(const std::string& role, const std::string& flag, const std::string& value,
              const std::string& reason) {
    ignored.push_back({{"role", role}, {"flag", flag}, {"value", value}, {"reason", reason}});
  }
  // Once per text: a note both command lines raise (an unknown --model-path) is one fact.
  void note(const std::string& role, const std::string& text) {
    const Json line = role + ": " + text;
    if (std::find(notes.begin(), notes.end(), line) == notes.end()) notes.push_back(line);
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
    const auto known = sglang_fields::server_env();
    if (std::find(known.begin(), known.end(), var) != known.end() || is_fabric_env(var)) {
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

// The fields that map verbatim, from their declarations: the flag's value, SGLang's own default
// when it is absent, or pdsim's default (noted) when SGLang picks the value itself. `skip`: the
// fields a rule sets.
void import_declared(const Flags& f, const std::string& role, const std::vector<FieldInfo>& fields,
                     const std::vector<std::string>& skip, Json& out, Log& log) {
  for (const FieldInfo& fi : fields) {
    if (std::find(skip.begin(), skip.end(), fi.path) != skip.end()) continue;
    const std::string name = sglang_fields::name_of(fi);
    std::optional<std::vector<std::string>> texts;
    if (fi.spec.sglang.flag) {
      if (auto it = f.args().values.find(name); it != f.args().values.end()) texts = it->second;
    } else if (auto it = f.args().env.find(name); it != f.args().env.end()) {
      texts = std::vector<std::string>{it->second};
    }
    std::optional<Json> v = sglang_fields::import_value(fi, texts, f.what());
    if (!v) {
      v = fi.default_value;
      log.note(role, name + " not given: SGLang picks it; pdsim default " + v->dump() + " used");
    }
    std::string pointer = "/" + fi.path.substr(role.size() + 1);
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    out[Json::json_pointer(pointer)] = *v;
  }
}

std::vector<std::string> spec_others(const std::vector<FieldInfo>& fields,
                                     const std::string& keep) {
  std::vector<std::string> out;
  for (const auto& f : fields)
    if (f.path != keep) out.push_back(f.path);
  return out;
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
  Json p = Json::object();
  import_declared(f, role, sglang_fields::mapped(role), {}, p, log);
  const bool cp_on = f.on("--enable-nsa-prefill-context-parallel");
  if (cp_on) f.choice("--nsa-prefill-cp-mode", {"round-robin-split"});
  // NSA prefill CP makes SGLang use DeepEP (server_args: moe_a2a_backend = "deepep").
  std::string backend =
      f.choice("--moe-a2a-backend", {"none", "deepep"}).value_or(cp_on ? "deepep" : "none");
  if (backend == "deepep") f.choice("--deepep-mode", {"auto", "normal"});
  const int tp = p.at("tp").get<int>();
  p["instances"] = 1;
  p["cp"] = cp_on ? tp / p.at("dp").get<int>() : 1;  // attn_cp_size = tp_size / dp_size
  p["ep"] = expert_parallel(f, backend, tp, role, log);
  p["moe_a2a_backend"] = backend;
  for (const char* flag : {"--cuda-graph-max-bs", "--speculative-algorithm"})
    if (f.has(flag))
      log.note(role, std::string(flag) + " recorded; it does not change the prefill model");
  return p;
}

Json import_decode(const Flags& f, Log& log) {
  const std::string role = "decode";
  check_mode(f, role);
  common_checks(f, role, log);
  Json d = Json::object();
  const bool no_graphs = f.on("--disable-cuda-graph");
  import_declared(
      f, role, sglang_fields::mapped(role, "decode.speculative"),
      no_graphs ? std::vector<std::string>{"decode.cuda_graph_max_bs"} : std::vector<std::string>{},
      d, log);
  if (no_graphs) d["cuda_graph_max_bs"] = 0;
  const std::string backend = f.choice("--moe-a2a-backend", {"none", "deepep"}).value_or("none");
  if (backend == "deepep") f.choice("--deepep-mode", {"auto", "low_latency"});
  if (f.on("--enable-nsa-prefill-context-parallel"))
    log.note(role, "--enable-nsa-prefill-context-parallel has no effect on decode");
  d["instances"] = 1;
  d["ep"] = expert_parallel(f, backend, d.at("tp").get<int>(), role, log);
  d["moe_a2a_backend"] = backend;
  if (f.has("--chunked-prefill-size"))
    log.note(role, "--chunked-prefill-size recorded; decode does not prefill in PD mode");
  if (f.has("--disaggregation-transfer-backend"))
    f.choice("--disaggregation-transfer-backend", {"mooncake", "nixl"});
  // Speculative decoding: its other flags count only with an algorithm.
  const auto spec = sglang_fields::mapped("decode.speculative");
  const std::string algo = "decode.speculative.algorithm";
  import_declared(f, role, spec, spec_others(spec, algo), d, log);
  if (d["speculative"]["algorithm"] != "none") {
    import_declared(f, role, spec, {algo}, d, log);
    log.note(role,
             "speculative.acceptance is not a launch flag: the scenario's acceptance model and "
             "its provenance apply");
  }
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
  sg["decode"] = record_flags(df, "decode", sglang::decode_no_effect(), log);
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
  const RoleEnv pre_a2a{"--prefill", &pf.args().env, out["prefill"]["moe_a2a_backend"] == "deepep"},
      dec_a2a{"--decode", &df.args().env, out["decode"]["moe_a2a_backend"] == "deepep"};
  const Json fabric = import_fabric_env(pre_a2a, dec_a2a);
  if (!fabric.empty()) out["fabric"] = fabric;
  out["prefill"]["a2a_backend"] = import_prefill_a2a_backend(pre_a2a, dec_a2a);
  const RoleEnv pre_env{"--prefill", &pf.args().env, false},
      dec_env{"--decode", &df.args().env, false};
  for (const auto& n : collective_env_notes(pre_env)) log.note("prefill", n);
  for (const auto& n : collective_env_notes(dec_env)) log.note("decode", n);
  const std::string kv_protocol = import_kv_protocol(pre_env, dec_env);
  if (!kv_protocol.empty()) out["prefill"]["kv_protocol"] = kv_protocol;
  out["sglang"] = sg;
  out["ignored"] = log.ignored;
  out["notes"] = log.notes;
  return out;
}

Json deployment_sections(const Json& imported) {
  Json out = Json::object();
  for (const char* k : {"model", "router", "prefill", "decode", "fabric"})
    if (imported.contains(k)) out[k] = imported.at(k);
  return out;
}

}  // namespace pdsim

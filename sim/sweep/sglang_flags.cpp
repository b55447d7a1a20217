#include "sim/sweep/sglang_flags.hpp"

#include <algorithm>
#include <optional>

#include "models/model_config.hpp"
#include "sim/scenario/sglang_fields.hpp"

namespace pdsim {
namespace {

class Flags {
 public:
  Flags& add(const std::string& flag) {
    s_ += (s_.empty() ? "" : " ") + flag;
    return *this;
  }
  Flags& add(const std::string& flag, const std::string& v) { return add(flag + " " + v); }
  Flags& add(const std::string& flag, int v) { return add(flag, std::to_string(v)); }
  Flags& add(const std::string& flag, double v) { return add(flag, Json(v).dump()); }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

Json::json_pointer pointer(const std::string& path) {
  std::string p = "/" + path;
  std::replace(p.begin(), p.end(), '.', '/');
  return Json::json_pointer(p);
}

std::string name_of(const FieldInfo& f) {
  return sglang_fields::name_of(f);
}

// The flags of fields that map verbatim, in declaration order; a value SGLang takes without
// being told is left out.
void add_declared(Flags& f, const Json& resolved, const std::vector<FieldInfo>& fields) {
  for (const FieldInfo& fi : fields) {
    if (!fi.spec.sglang.flag) continue;
    auto t = sglang_fields::export_text(fi, resolved.at(pointer(fi.path)));
    if (t) f.add(t->empty() ? name_of(fi) : name_of(fi) + " " + *t);
  }
}

std::optional<std::string> declared_text(const Json& resolved, const std::string& path) {
  for (const FieldInfo& fi : sglang_fields::mapped(path.substr(0, path.find('.'))))
    if (fi.path == path) return sglang_fields::export_text(fi, resolved.at(pointer(fi.path)));
  return std::nullopt;
}

// A role's MoE path: DeepEP (SGLang sets EP = TP) with the reference deployment's placement and
// dense-TP settings, or no all-to-all with --ep-size (absent: pure TP MoE) and
// --moe-dense-tp-size 1 only with DP attention (what pdsim models then).
void add_moe(Flags& f, const ModelConfig& m, const std::string& backend, int ep, bool dp_attention,
             const char* deepep_mode) {
  if (!m.is_moe()) return;
  if (backend == "deepep") {
    f.add("--moe-a2a-backend", "deepep").add("--deepep-mode", deepep_mode);
    f.add("--ep-dispatch-algorithm", "dynamic").add("--eplb-algorithm", "deepseek");
    f.add("--moe-dense-tp-size", 1);
    return;
  }
  if (ep > 1) f.add("--ep-size", ep);
  if (dp_attention) f.add("--moe-dense-tp-size", 1);
}

}  // namespace

SglangFlags sglang_flags(const Scenario& s) {
  const ModelConfig m = load_model(s.model, s.file);
  const bool nsa = m.has_indexer();
  const auto& p = s.prefill;
  const auto& d = s.decode;
  const Json resolved = s.resolved_json();
  SglangFlags out;

  Flags pf;
  pf.add("--model-path", m.hf_id);
  add_declared(pf, resolved, sglang_fields::mapped("prefill"));
  if (nsa) {
    pf.add("--attention-backend", "nsa");
    if (p.cp > 1)
      pf.add("--enable-nsa-prefill-context-parallel")
          .add("--nsa-prefill-cp-mode", "round-robin-split");
  }
  add_moe(pf, m, p.moe_a2a_backend, p.ep, false, "normal");
  // The prefill writes the KV cache in the decode's element type.
  if (d.kv_cache_dtype == KvDtype::fp8) pf.add("--kv-cache-dtype", "fp8_e4m3");
  pf.add("--disaggregation-mode", "prefill");
  out.prefill = pf.str();

  Flags df;
  df.add("--model-path", m.hf_id);
  add_declared(
      df, resolved,
      sglang_fields::mapped("decode", d.speculative.enabled() ? "" : "decode.speculative"));
  add_moe(df, m, d.moe_a2a_backend, d.ep, d.dp_attention, "low_latency");
  if (nsa) df.add("--attention-backend", "nsa");
  df.add("--disaggregation-mode", "decode");
  if (auto be = declared_text(resolved, "prefill.kv_transfer_backend"))
    df.add("--disaggregation-transfer-backend", *be);
  out.decode = df.str();
  if (m.is_moe())
    for (const auto& f : sglang_fields::mapped("decode"))
      if (f.spec.sglang.env)
        if (auto t = sglang_fields::export_text(f, resolved.at(pointer(f.path))))
          out.decode_env += (out.decode_env.empty() ? "" : " ") + name_of(f) + "=" + *t;

  Flags rf;
  rf.add("--pd-disaggregation").add("--mini-lb");
  for (int i = 0; i < p.instances; ++i)
    rf.add("--prefill", "http://<prefill-" + std::to_string(i) + "-node-0>:30000 8998");
  for (int i = 0; i < d.instances; ++i)
    rf.add("--decode", "http://<decode-" + std::to_string(i) + "-node-0>:30000");
  out.router = rf.str();

  out.notes.push_back("one prefill server per instance (" + std::to_string(p.instances) +
                      "), one decode server per instance (" + std::to_string(d.instances) +
                      "); on every node of a multi-node instance add --dist-init-addr "
                      "<node-0>:<port> --node-rank <r>");
  if (m.is_moe() && ((p.moe_a2a_backend == "deepep" && p.ep != p.tp) ||
                     (d.moe_a2a_backend == "deepep" && d.ep != d.tp)))
    out.notes.push_back(
        "the scenario's EP differs from TP, but SGLang's DeepEP backend sets EP = TP");
  if (m.is_moe())
    out.notes.push_back(
        "--ep-dispatch-algorithm, --eplb-algorithm, --moe-dense-tp-size and "
        "--nsa-prefill-cp-mode are the reference deployment's settings (not modelled)");
  if (s.fabric.profile.find("efa") != std::string::npos)
    out.notes.push_back("on EFA, DeepEP is UCCL-EP (same API): install it in place of DeepEP");
  return out;
}

Json SglangFlags::to_json() const {
  return Json{{"prefill", prefill},
              {"decode", decode},
              {"decode_env", decode_env},
              {"router", router},
              {"notes", notes}};
}

std::string SglangFlags::text() const {
  std::string t = "prefill: python3 -m sglang.launch_server " + prefill + "\n";
  t += "decode:  " + (decode_env.empty() ? "" : decode_env + " ") +
       "python3 -m sglang.launch_server " + decode + "\n";
  t += "router:  python3 -m sglang_router.launch_router " + router + "\n";
  for (const auto& n : notes) t += "  note: " + n + "\n";
  return t;
}

}  // namespace pdsim

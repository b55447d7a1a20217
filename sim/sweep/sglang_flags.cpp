#include "sim/sweep/sglang_flags.hpp"

#include "models/model_config.hpp"

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

// EP settings shared by both roles; SGLang sets EP = TP with the DeepEP backend.
void add_moe(Flags& f, const ModelConfig& m, const char* deepep_mode) {
  if (!m.is_moe()) return;
  f.add("--moe-a2a-backend", "deepep").add("--deepep-mode", deepep_mode);
  f.add("--ep-dispatch-algorithm", "dynamic").add("--eplb-algorithm", "deepseek");
}

}  // namespace

SglangFlags sglang_flags(const Scenario& s) {
  const ModelConfig m = load_model(s.model, s.file);
  const bool nsa = m.has_indexer();
  const auto& p = s.prefill;
  const auto& d = s.decode;
  SglangFlags out;

  Flags pf;
  pf.add("--model-path", m.hf_id).add("--tp-size", p.tp).add("--pp-size", p.pp);
  pf.add("--nnodes", p.nodes_per_instance).add("--chunked-prefill-size", p.chunked_prefill_size);
  if (nsa) {
    pf.add("--attention-backend", "nsa");
    if (p.cp > 1)
      pf.add("--enable-nsa-prefill-context-parallel")
          .add("--nsa-prefill-cp-mode", "round-robin-split");
  }
  add_moe(pf, m, "normal");
  if (m.is_moe()) pf.add("--moe-dense-tp-size", 1);
  if (d.kv_cache_dtype == KvDtype::fp8) pf.add("--kv-cache-dtype", "fp8_e4m3");
  pf.add("--mem-fraction-static", p.mem_fraction_static);
  pf.add("--max-running-requests", p.max_running_requests);
  pf.add("--disaggregation-mode", "prefill");
  pf.add("--disaggregation-transfer-backend", p.kv_transfer_backend);
  out.prefill = pf.str();

  Flags df;
  df.add("--model-path", m.hf_id).add("--tp-size", d.tp).add("--dp-size", d.dp);
  df.add("--nnodes", d.nodes_per_instance);
  if (d.dp_attention) df.add("--enable-dp-attention").add("--enable-dp-lm-head");
  if (m.is_moe()) df.add("--moe-dense-tp-size", 1);
  add_moe(df, m, "low_latency");
  if (nsa) df.add("--attention-backend", "nsa");
  if (d.kv_cache_dtype == KvDtype::fp8) df.add("--kv-cache-dtype", "fp8_e4m3");
  df.add("--mem-fraction-static", d.mem_fraction_static);
  df.add("--max-running-requests", d.max_running_requests);
  df.add("--cuda-graph-max-bs", d.cuda_graph_max_bs);
  if (!d.cuda_graph_bs.empty()) {
    std::string list;
    for (int b : d.cuda_graph_bs) list += (list.empty() ? "" : " ") + std::to_string(b);
    df.add("--cuda-graph-bs", list);
  }
  if (d.speculative.enabled()) {
    df.add("--speculative-algorithm", "EAGLE")
        .add("--speculative-num-steps", d.speculative.num_steps);
    df.add("--speculative-eagle-topk", d.speculative.topk);
    df.add("--speculative-num-draft-tokens", d.speculative.num_draft_tokens);
  }
  df.add("--disaggregation-mode", "decode");
  df.add("--disaggregation-transfer-backend", p.kv_transfer_backend);
  out.decode = df.str();
  if (m.is_moe())
    out.decode_env = "SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK=" +
                     std::to_string(d.ll_max_dispatch_tokens_per_rank);

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
  if (m.is_moe() && (p.ep != p.tp || d.ep != d.tp))
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

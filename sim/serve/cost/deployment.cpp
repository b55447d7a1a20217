#include "sim/serve/cost/deployment.hpp"

#include <algorithm>
#include <cmath>

#include <filesystem>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fabric/intranode_terms.hpp"
#include "sim/scenario/no_effect.hpp"
#include "sim/serve/cost/acceptance_profile.hpp"
#include "sim/serve/cost/kv_engine.hpp"
#include "sim/serve/cost/layout_checks.hpp"
#include "sim/serve/cost/role_layout.hpp"

namespace pdsim {
namespace {

Json document(const std::string& kind_dir, const std::string& name, const std::string& file,
              const std::string& field) {
  return load_named(kind_dir, name, file, field).raw();
}

// A profile document with the scenario's overlays applied, and what they changed.
struct ProfileDoc {
  std::string path;
  Json doc, overlays;
};

ProfileDoc profile_doc(const std::string& kind_dir, const std::string& name, const Scenario& s,
                       const std::string& field, const std::vector<ProfileOverlay>& overlays,
                       const std::string& kind) {
  ProfileDoc p;
  const JsonNode doc = load_named(kind_dir, name, s.file, field);
  p.path = doc.file();
  p.doc = doc.raw();
  const std::string fitted_name =
      p.doc.is_object() && p.doc.contains("name") && p.doc["name"].is_string()
          ? p.doc["name"].get<std::string>()
          : name;
  p.overlays = apply_profile_overlays(overlays, kind, fitted_name, p.path, p.doc);
  return p;
}

std::vector<ProfileOverlay> scenario_overlays(const Scenario& s,
                                              const std::vector<ProfileOverlay>& extra) {
  std::vector<ProfileOverlay> out;
  for (const auto& f : s.profile_overlays) {
    std::filesystem::path p(f);
    if (p.is_relative() && !s.file.empty()) p = std::filesystem::path(s.file).parent_path() / p;
    out.push_back(load_profile_overlay(p.lexically_normal().string()));
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

}  // namespace

Deployment build_deployment(const Scenario& s, const std::vector<ProfileOverlay>& extra_overlays) {
  Deployment d;
  d.scenario = s;
  const std::vector<ProfileOverlay> overlays = scenario_overlays(s, extra_overlays);
  d.model = load_model(s.model, s.file, "model");
  d.instance = load_instance(s.cluster.instance_type, s.file, "cluster.instance_type");
  d.gpu = load_gpu(d.instance.gpu, d.instance.name, "gpu");
  const ProfileDoc gpu_doc =
      profile_doc("models/profiles/gpu", s.gpu_profile, s, "gpu_profile", overlays, "gpu");
  d.gpu_profile = gpu_profile_from_json(gpu_doc.doc, gpu_doc.path);
  if (d.gpu_profile.gpu != d.gpu.name)
    throw InputError(s.file, "gpu_profile",
                     "profile '" + s.gpu_profile + "' is for GPU '" + d.gpu_profile.gpu +
                         "' but instance type '" + d.instance.name + "' has '" + d.gpu.name + "'");
  const ProfileDoc fabric_doc = profile_doc("models/profiles/fabric", s.fabric.profile, s,
                                            "fabric.profile", overlays, "fabric");
  d.fabric = fabric_profile_from_json(fabric_doc.doc, fabric_doc.path);
  const ProfileDoc serving_doc = profile_doc("models/profiles/serving", s.serving_profile, s,
                                             "serving_profile", overlays, "serving");
  d.serving = serving_profile_from_json(serving_doc.doc, serving_doc.path);
  const Json nvlink_terms = apply_intranode_profile(d.fabric, d.gpu_profile);
  if (s.model != "" && d.model.is_moe())
    d.a2a_backend = A2ABackendRegistry::instance().create(s.fabric.a2a_backend, s.file,
                                                          "fabric.a2a_backend", d.fabric);
  d.fidelity =
      FabricFidelityRegistry::instance().create(s.fabric.fidelity, s.file, "fabric.fidelity");
  d.passes = decode_passes(s.decode.speculative);
  Json acceptance_doc = nullptr, acceptance_overlays = Json::array();
  if (d.passes.speculative) {
    const auto& sp = s.decode.speculative;
    if (sp.acceptance.accept_prob) {
      d.accept_prob = *sp.acceptance.accept_prob;
    } else {
      const ProfileDoc a =
          profile_doc("models/profiles/acceptance",
                      sp.acceptance.profile.empty() ? s.model : sp.acceptance.profile, s,
                      "decode.speculative.acceptance.profile", overlays, "acceptance");
      d.accept_prob =
          acceptance_profile_from_json(a.doc, a.path).accept_prob(s.workload.dataset, s.file);
      acceptance_doc = a.doc;
      acceptance_overlays = a.overlays;
    }
  }
  d.decode_layout = decode_parallel(s, d.model);
  d.prefill_layout = prefill_parallel(s, d.model);
  if (d.model.is_moe()) d.prefill_normal_rdma = normal_rdma_rates(d.fabric, prefill_a2a_backend(s));
  check_prefill(s, d.model, d.instance, d.prefill_layout, d.prefill_normal_rdma);
  check_decode(s, d.model, d.instance, d.decode_layout);
  Json collective_overlays = Json::array();
  if (!s.fabric.collective_profile.empty()) {
    const ProfileDoc c = profile_doc("models/profiles/collective", s.fabric.collective_profile, s,
                                     "fabric.collective_profile", overlays, "collective");
    d.collective =
        std::make_shared<const CollectiveProfile>(collective_profile_from_json(c.doc, c.path));
    collective_overlays = c.overlays;
  }

  const KvDtype kv = s.decode.kv_cache_dtype;
  auto compute = std::make_shared<ComputeModel>(d.model, d.gpu, d.gpu_profile, kv);
  compute->set_decode_tp(d.decode_layout.attn_tp);
  d.compute = compute;
  d.kv_bytes_per_token = kv_bytes_per_token(d.model, kv);

  ParallelLayout pl;
  pl.gpus = d.prefill_gpus();
  pl.tp = s.prefill.tp;
  pl.pp = s.prefill.pp;
  // Routed-expert bytes per GPU depend on ep × moe_tp only (experts / ep, each split moe_tp).
  pl.ep = d.prefill_layout.moe_ep * d.prefill_layout.moe_tp;
  pl.cp = s.prefill.cp;
  pl.dp_attention = d.prefill_layout.attn_dp;
  pl.moe_dense_tp = 1;
  pl.mem_fraction_static = s.prefill.mem_fraction_static;
  d.prefill_memory = plan_memory(d.model, d.gpu, pl, kv);

  ParallelLayout dl;
  dl.gpus = s.decode.nodes_per_instance * d.instance.gpus_per_node;
  const SglangParallel& L = d.decode_layout;
  dl.tp = s.decode.tp;
  dl.dp_attention = L.attn_dp;
  dl.ep = d.model.is_moe() ? L.moe_ep * L.moe_tp : 1;  // as for prefill
  dl.moe_dense_tp = L.dense_tp;
  dl.mtp = d.passes.speculative && d.model.mtp_layers > 0;
  dl.ll_max_dispatch_tokens_per_rank =
      d.model.is_moe() && L.moe_a2a ? s.decode.ll_max_dispatch_tokens_per_rank : 0;
  dl.mem_fraction_static = s.decode.mem_fraction_static;
  d.decode_memory = plan_memory(d.model, d.gpu, dl, kv);
  if (d.passes.speculative && d.model.mtp_layers == 0)
    throw InfeasibleError("decode: EAGLE needs a draft (MTP) layer, model '" + d.model.name +
                          "' has none");

  d.decode_ranks = L.attn_dp;
  const int q = d.passes.query_tokens;
  // SGLang gives each DP-attention rank floor(max_running_requests / dp); a global cap below dp
  // would leave ranks with none, which the simulator cannot honour (it would round up to 1).
  if (s.decode.max_running_requests < L.attn_dp)
    throw InputError(s.file, "decode.max_running_requests",
                     "expected at least decode.dp (" + std::to_string(L.attn_dp) +
                         "): each DP-attention rank gets floor(max_running_requests / dp) "
                         "requests, and " +
                         std::to_string(s.decode.max_running_requests) + " gives 0");
  d.request_pool_per_rank = s.decode.max_running_requests / L.attn_dp;
  d.max_requests_per_rank = d.request_pool_per_rank;
  // DeepEP's low-latency buffers hold ll_max_dispatch_tokens_per_rank per GPU; an attention TP
  // group scatters its tokens over its GPUs before dispatch.
  if (d.model.is_moe() && L.moe_a2a)
    d.max_requests_per_rank =
        std::min(d.max_requests_per_rank, s.decode.ll_max_dispatch_tokens_per_rank * L.attn_tp / q);
  if (d.max_requests_per_rank < 1)
    throw InfeasibleError("decode: ll_max_dispatch_tokens_per_rank " +
                          std::to_string(s.decode.ll_max_dispatch_tokens_per_rank) +
                          " is below the query tokens of one request (" + std::to_string(q) + ")");
  const double need = s.workload.input_len + s.workload.output_len;
  if (d.model.max_context > 0 && need > d.model.max_context)
    throw InputError(s.file, "workload.input_len",
                     "expected input_len + output_len (" +
                         std::to_string(static_cast<long long>(need)) +
                         ") at most the model's max_context " +
                         std::to_string(d.model.max_context) + " ('" + d.model.name + "')");
  if (d.decode_memory.kv_capacity_tokens < need)
    throw InfeasibleError(
        "decode: KV capacity per rank is " +
        std::to_string(static_cast<long long>(d.decode_memory.kv_capacity_tokens)) +
        " tokens, below one request's " + std::to_string(static_cast<long long>(need)));

  d.a2a_nics = s.decode.a2a_nics > 0 ? s.decode.a2a_nics : d.instance.nics_per_node;
  d.kv_nics = s.prefill.kv_nics > 0 ? s.prefill.kv_nics : d.instance.nics_per_node;
  if (d.a2a_nics > d.instance.nics_per_node)
    throw InputError(
        s.file, "decode.a2a_nics",
        "expected at most the instance's " + std::to_string(d.instance.nics_per_node) + " NICs");
  if (d.kv_nics > d.instance.nics_per_node)
    throw InputError(
        s.file, "prefill.kv_nics",
        "expected at most the instance's " + std::to_string(d.instance.nics_per_node) + " NICs");
  if (s.prefill.kv_first_nic + d.kv_nics > d.instance.nics_per_node)
    throw InputError(s.file, "prefill.kv_first_nic",
                     "expected kv_first_nic + kv_nics <= the instance's " +
                         std::to_string(d.instance.nics_per_node) + " NICs");
  d.a2a.ep_ranks = d.model.is_moe() ? L.moe_ep : 1;
  d.a2a.gpus_per_node = d.instance.gpus_per_node;
  d.a2a.num_experts = d.model.n_routed_experts;
  d.a2a.top_k = d.model.top_k;
  d.a2a.hidden = d.model.hidden;
  d.a2a.nics_per_gpu = static_cast<double>(d.a2a_nics) / d.instance.gpus_per_node;
  d.a2a.nic_gbps = d.instance.nic_gbps;
  d.kv_block_bytes = s.prefill.kv_block_bytes > 0
                         ? s.prefill.kv_block_bytes
                         : s.prefill.kv_page_size * d.kv_bytes_per_token / d.model.num_layers;

  d.profiles = Json{{"model", document("models/catalog/llm", s.model, s.file, "model")},
                    {"instance", document("models/catalog/instance", s.cluster.instance_type,
                                          s.file, "cluster.instance_type")},
                    {"gpu", document("models/catalog/gpu", d.instance.gpu, s.file, "gpu")},
                    {"gpu_profile", gpu_doc.doc},
                    {"fabric_profile", fabric_doc.doc},
                    {"serving_profile", serving_doc.doc},
                    {"nvlink_terms", Json{{"provenance", nvlink_terms}}}};
  if (d.collective) d.profiles["collective_profile"] = collective_profile_to_json(*d.collective);
  if ((d.kv_tcp = resolve_kv_transport(s)))
    d.profiles["kv_transport"] = document("models/catalog/kv_transport", s.prefill.kv_tcp_transport,
                                          s.file, "prefill.kv_tcp_transport");
  if (!acceptance_doc.is_null()) d.profiles["acceptance_profile"] = acceptance_doc;
  std::vector<std::string> warnings = no_effect_warnings(s);
  if (!overlays.empty()) {
    // Each overlay's provenance, and what it applied or skipped per profile.
    Json applied = Json::array();
    for (const Json* log : {&gpu_doc.overlays, &fabric_doc.overlays, &serving_doc.overlays,
                            static_cast<const Json*>(&acceptance_overlays),
                            static_cast<const Json*>(&collective_overlays)})
      for (const auto& e : *log) applied.push_back(e);
    for (auto& w : overlays_applying_nowhere(overlays, applied)) warnings.push_back(std::move(w));
    Json files = Json::array();
    for (const auto& o : overlays)
      files.push_back(
          {{"file", o.file}, {"name", o.doc.at("name")}, {"provenance", o.doc.at("provenance")}});
    d.profiles["profile_overlays"] = {{"overlays", files}, {"applied", applied}};
  }
  if (!warnings.empty()) d.profiles["input_warnings"] = warnings;
  d.fidelity->check(d);
  d.joins = elastic_joins(d);
  return d;
}

}  // namespace pdsim

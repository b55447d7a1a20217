// The resolved form of a scenario (every field, defaults filled in) and `--set` overrides on it.
#include <cmath>

#include "sim/core/json_override.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

Json Scenario::resolved_json() const {
  const auto& sp = decode.speculative;
  Json rate = std::isinf(workload.request_rate) ? Json("inf") : Json(workload.request_rate);
  return Json{
      {"schema", "pdsim.scenario/1"},
      {"name", name},
      {"description", description},
      {"model", model},
      {"gpu_profile", gpu_profile},
      {"serving_profile", serving_profile},
      {"profile_overlays", profile_overlays},
      {"cluster",
       {{"instance_type", instance_type}, {"network", network}, {"topology_file", topology_file}}},
      {"router", {{"policy", router_policy}}},
      {"fabric",
       {{"profile", fabric.profile},
        {"fidelity", fabric.fidelity},
        {"a2a_backend", fabric.a2a_backend},
        {"routing_samples", fabric.routing_samples},
        {"packet_samples", fabric.packet_samples}}},
      {"prefill",
       {{"instances", prefill.instances},
        {"nodes_per_instance", prefill.nodes_per_instance},
        {"tp", prefill.tp},
        {"pp", prefill.pp},
        {"cp", prefill.cp},
        {"ep", prefill.ep},
        {"chunked_prefill_size", prefill.chunked_prefill_size},
        {"max_running_requests", prefill.max_running_requests},
        {"mem_fraction_static", prefill.mem_fraction_static},
        {"kv_transfer_backend", prefill.kv_transfer_backend},
        {"kv_page_size", prefill.kv_page_size},
        {"kv_block_bytes", prefill.kv_block_bytes},
        {"kv_nics", prefill.kv_nics},
        {"kv_first_nic", prefill.kv_first_nic}}},
      {"decode",
       {{"instances", decode.instances},
        {"nodes_per_instance", decode.nodes_per_instance},
        {"tp", decode.tp},
        {"dp", decode.dp},
        {"ep", decode.ep},
        {"dp_attention", decode.dp_attention},
        {"max_running_requests", decode.max_running_requests},
        {"mem_fraction_static", decode.mem_fraction_static},
        {"cuda_graph_max_bs", decode.cuda_graph_max_bs},
        {"cuda_graph_bs", decode.cuda_graph_bs},
        {"ll_max_dispatch_tokens_per_rank", decode.ll_max_dispatch_tokens_per_rank},
        {"kv_cache_dtype", kv_dtype_name(decode.kv_cache_dtype)},
        {"scheduler_overhead_us", decode.scheduler_overhead_us},
        {"recompute_tolerance", decode.recompute_tolerance},
        {"a2a_nics", decode.a2a_nics},
        {"speculative",
         {{"algorithm", sp.algorithm},
          {"num_steps", sp.num_steps},
          {"topk", sp.topk},
          {"num_draft_tokens", sp.num_draft_tokens},
          {"acceptance",
           {{"model", sp.acceptance_model},
            {"profile", sp.acceptance_profile},
            {"accept_prob", sp.accept_prob ? Json(*sp.accept_prob) : Json(nullptr)},
            {"provenance", sp.acceptance_provenance}}}}}}},
      {"workload",
       {{"dataset", workload.dataset},
        {"input_len", workload.input_len},
        {"output_len", workload.output_len},
        {"range_ratio", workload.range_ratio},
        {"num_prompts", workload.num_prompts},
        {"request_rate", rate},
        {"max_concurrency",
         workload.max_concurrency == 0 ? Json(nullptr) : Json(workload.max_concurrency)}}},
      {"tail", tail.to_json()},
      {"seed", seed}};
}

void apply_override(Json& doc, const std::string& assignment, const std::string& file) {
  apply_json_override(doc, assignment, file + " (--set)",
                      {.create_missing = false, .what = "scenario path"});
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  Scenario s = parse_scenario(JsonNode::load_file(path));
  if (overrides.empty()) return s;
  Json doc = s.resolved_json();
  for (const auto& o : overrides) apply_override(doc, o, path);
  Scenario out = parse_scenario(JsonNode::from_json(std::move(doc), path + " (after --set)"));
  out.file = path;
  return out;
}

}  // namespace pdsim

#include "sim/serve/tail_config.hpp"

#include "sim/core/provenance.hpp"

namespace pdsim {

Json TailConfig::to_json() const {
  return Json{{"dp_imbalance", dp_imbalance},
              {"cuda_graph_miss", cuda_graph_miss},
              {"batch_jumps", batch_jumps},
              {"acceptance_variance", acceptance_variance},
              {"fabric_background", fabric_background},
              {"expert_skew",
               {{"enabled", expert_skew.enabled},
                {"zipf_s", expert_skew.zipf_s},
                {"eplb", expert_skew.eplb},
                {"provenance", expert_skew.provenance}}},
              {"scheduler_hiccups",
               {{"enabled", scheduler_hiccups.enabled},
                {"probability", scheduler_hiccups.probability},
                {"delay_us", scheduler_hiccups.delay_us},
                {"provenance", scheduler_hiccups.provenance}}}};
}

namespace {
// A mechanism switched on needs the source of its parameters (honest numbers).
void need_provenance(const JsonNode& n, bool enabled, const Json& prov) {
  if (enabled && (prov.is_null() || (prov.is_object() && prov.empty())))
    n.fail(
        "expected a 'provenance' (published figure or measurement) for the parameters of an "
        "enabled mechanism");
}
}  // namespace

TailConfig parse_tail(const JsonNode& n) {
  n.expect_only({"dp_imbalance", "cuda_graph_miss", "batch_jumps", "acceptance_variance",
                 "fabric_background", "expert_skew", "scheduler_hiccups"});
  TailConfig t;
  t.dp_imbalance = n.bool_or("dp_imbalance", t.dp_imbalance);
  t.cuda_graph_miss = n.bool_or("cuda_graph_miss", t.cuda_graph_miss);
  t.batch_jumps = n.bool_or("batch_jumps", t.batch_jumps);
  t.acceptance_variance = n.bool_or("acceptance_variance", t.acceptance_variance);
  t.fabric_background = n.bool_or("fabric_background", t.fabric_background);
  if (n.has("expert_skew")) {
    const JsonNode e = n.at("expert_skew");
    e.expect_only({"enabled", "zipf_s", "eplb", "provenance"});
    t.expert_skew.enabled = e.bool_or("enabled", false);
    t.expert_skew.zipf_s = e.has("zipf_s") ? e.at("zipf_s").non_negative() : 0.0;
    t.expert_skew.eplb = e.bool_or("eplb", true);
    // Nullable: the resolved scenario writes null for "none given" (to_json above).
    if (e.has_nullable("provenance"))
      t.expert_skew.provenance = read_provenance(e.at("provenance"));
    need_provenance(e, t.expert_skew.enabled, t.expert_skew.provenance);
  }
  if (n.has("scheduler_hiccups")) {
    const JsonNode h = n.at("scheduler_hiccups");
    h.expect_only({"enabled", "probability", "delay_us", "provenance"});
    t.scheduler_hiccups.enabled = h.bool_or("enabled", false);
    t.scheduler_hiccups.probability = h.has("probability") ? h.at("probability").fraction() : 0.0;
    t.scheduler_hiccups.delay_us = h.has("delay_us") ? h.at("delay_us").non_negative() : 0.0;
    if (h.has_nullable("provenance"))
      t.scheduler_hiccups.provenance = read_provenance(h.at("provenance"));
    need_provenance(h, t.scheduler_hiccups.enabled, t.scheduler_hiccups.provenance);
  }
  return t;
}

}  // namespace pdsim

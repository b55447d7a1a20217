#include "sim/serve/cost/elastic_joins.hpp"

#include "sim/core/error.hpp"
#include "sim/serve/cost/connection_table.hpp"

namespace pdsim {
namespace {

ColdStart cold_start(const std::vector<ConnectionRow>& rows, const std::string& side) {
  ColdStart c;
  for (const auto& r : rows) {
    if (r.side == side && !r.lib && r.purpose.find("all-to-all") != std::string::npos) {
      // An EP group connects at init; its library's state is not in the catalog.
      c.complete = false;
      c.unknown.push_back(r.purpose + " (" + r.missing + ")");
      continue;
    }
    if (r.side != side || !r.lib || r.lib->established != "eager") continue;
    c.s += r.setup.cold_start_us / 1e6;
    c.complete = c.complete && r.setup.cold_known;
    c.libraries.push_back(r.library);
    for (const auto& k : r.setup.unknown_kinds) c.unknown.push_back(r.library + " " + k);
  }
  return c;
}

struct RolePlan {
  std::vector<double>&ready, &leave;
  std::vector<bool>& joined;
};

void plan_role(const std::vector<double>& joins, const std::vector<double>& leaves, int instances,
               int standby, const std::string& role, const ColdStart& cold, double warmup_s,
               const std::string& file, RolePlan out, Json& description) {
  const auto n = static_cast<size_t>(instances);
  out.ready.assign(n, 0.0);
  out.leave.assign(n, ElasticJoins::kNever);
  out.joined.assign(n, false);
  std::vector<double> join_at(n, 0.0);
  const std::string joins_field = "elastic." + role + "_joins_s";
  if (static_cast<int>(joins.size()) + standby >= instances)
    throw InputError(file, standby > 0 ? std::string("elastic.autoscale_standby") : joins_field,
                     "fewer joining and standby instances than " + role + ".instances (" +
                         std::to_string(instances) + "): at least one serves from the start");
  const size_t first = n - static_cast<size_t>(standby) - joins.size();
  for (size_t j = 0; j < joins.size(); ++j) {
    const size_t inst = first + j;
    join_at[inst] = joins[j];
    out.ready[inst] = joins[j] + cold.s + warmup_s;
    out.joined[inst] = true;
    Json e = {{"role", role},
              {"instance", inst},
              {"trigger", "scheduled"},
              {"join_s", joins[j]},
              {"cold_start", cold.json()},
              {"warmup_s", warmup_s},
              {"ready_s", out.ready[inst]}};
    description.push_back(std::move(e));
  }
  for (size_t inst = n - static_cast<size_t>(standby); inst < n; ++inst) {
    join_at[inst] = out.ready[inst] = ElasticJoins::kNever;
    out.joined[inst] = true;
  }
  const std::string leaves_field = "elastic." + role + "_leaves_s";
  for (double t : leaves) {
    size_t pick = n;  // the newest instance in the cluster at t that has not left
    for (size_t i = 0; i < n; ++i)
      if (join_at[i] <= t && out.leave[i] == ElasticJoins::kNever) pick = i;
    if (pick == n)
      throw InputError(file, leaves_field,
                       "no " + role + " instance left to leave at " + std::to_string(t) + " s");
    out.leave[pick] = t;
    bool serving = false;  // another instance ready by t and staying
    for (size_t i = 0; i < n; ++i)
      serving = serving || (out.ready[i] <= t && out.leave[i] == ElasticJoins::kNever);
    if (!serving)
      throw InputError(file, leaves_field,
                       "at " + std::to_string(t) + " s no other " + role +
                           " instance would be serving: one must serve at every time");
    description.push_back({{"role", role}, {"instance", pick}, {"leave_s", t}});
  }
}

}  // namespace

Json ColdStart::json() const {
  return {{"s", s}, {"complete", complete}, {"libraries", libraries}, {"unknown", unknown}};
}

ElasticJoins elastic_joins(const Deployment& d) {
  ElasticJoins e;
  e.description = Json::array();
  const auto& s = d.scenario;
  const auto& el = s.elastic;
  const bool any = !el.decode_joins_s.empty() || !el.prefill_joins_s.empty() ||
                   !el.decode_leaves_s.empty() || !el.prefill_leaves_s.empty() ||
                   el.autoscale_role != "none";
  // Without a change the plan is every instance from the start; no connection table needed.
  const std::vector<ConnectionRow> rows = any ? connection_table(d) : std::vector<ConnectionRow>{};
  e.decode_cold = cold_start(rows, "decode");
  e.prefill_cold = cold_start(rows, "prefill");
  e.warmup_s = el.join_warmup_s;
  e.autoscale_role = el.autoscale_role;
  e.autoscale_queue_per_instance = el.autoscale_queue_per_instance;
  for (const std::string role : {"prefill", "decode"})
    if (el.autoscale_role == role &&
        !(role == "decode" ? el.decode_joins_s : el.prefill_joins_s).empty())
      throw InputError(s.file, "elastic.autoscale_role",
                       "not " + role + ": elastic." + role +
                           "_joins_s already schedules its joins (one or the other per role)");
  const int dstand = el.autoscale_role == "decode" ? el.autoscale_standby : 0;
  const int pstand = el.autoscale_role == "prefill" ? el.autoscale_standby : 0;
  plan_role(el.decode_joins_s, el.decode_leaves_s, s.decode.instances, dstand, "decode",
            e.decode_cold, el.join_warmup_s, s.file,
            {e.decode_ready_s, e.decode_leave_s, e.decode_joined}, e.description);
  plan_role(el.prefill_joins_s, el.prefill_leaves_s, s.prefill.instances, pstand, "prefill",
            e.prefill_cold, el.join_warmup_s, s.file,
            {e.prefill_ready_s, e.prefill_leave_s, e.prefill_joined}, e.description);
  if (el.autoscale_role != "none")
    e.first_standby = (el.autoscale_role == "decode" ? s.decode.instances : s.prefill.instances) -
                      el.autoscale_standby;
  for (const auto& r : rows)
    if (r.purpose == "KV transfer" && r.side == "prefill" && r.lib)
      e.kv_connect_s = r.setup.peer_connect_us / 1e6;
  for (Json& j : e.description)
    if (j.contains("join_s")) j["kv_connect_s"] = e.kv_connect_s;
  return e;
}

}  // namespace pdsim

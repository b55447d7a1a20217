#include "sim/serve/cost/elastic_joins.hpp"

#include "sim/core/error.hpp"
#include "sim/serve/cost/connection_table.hpp"

namespace pdsim {
namespace {

struct ColdStart {
  double us = 0;
  bool complete = true;
  std::vector<std::string> libraries, unknown;
};

ColdStart cold_start(const std::vector<ConnectionRow>& rows, const std::string& side) {
  ColdStart c;
  for (const auto& r : rows) {
    if (r.side != side || !r.lib || r.lib->established != "eager") continue;
    c.us += r.setup.cold_start_us;
    c.complete = c.complete && r.setup.cold_known;
    c.libraries.push_back(r.library);
    for (const auto& k : r.setup.unknown_kinds) c.unknown.push_back(r.library + " " + k);
  }
  return c;
}

void role_joins(const std::vector<double>& joins, int instances, const std::string& role,
                const ColdStart& cold, double warmup_s, const std::string& file,
                std::vector<double>& ready, std::vector<bool>& joined, Json& out) {
  ready.assign(static_cast<size_t>(instances), 0.0);
  joined.assign(static_cast<size_t>(instances), false);
  if (joins.empty()) return;
  if (static_cast<int>(joins.size()) >= instances)
    throw InputError(file, "elastic." + role + "_joins_s",
                     "fewer joins than " + role + ".instances (" + std::to_string(instances) +
                         "): at least one instance serves from the start");
  const int first = instances - static_cast<int>(joins.size());
  for (size_t j = 0; j < joins.size(); ++j) {
    const int inst = first + static_cast<int>(j);
    const double r = joins[j] + cold.us / 1e6 + warmup_s;
    ready[static_cast<size_t>(inst)] = r;
    joined[static_cast<size_t>(inst)] = true;
    out.push_back({{"role", role},
                   {"instance", inst},
                   {"join_s", joins[j]},
                   {"cold_start_s", cold.us / 1e6},
                   {"cold_start_complete", cold.complete},
                   {"cold_start_libraries", cold.libraries},
                   {"cold_start_unknown", cold.unknown},
                   {"warmup_s", warmup_s},
                   {"ready_s", r}});
  }
}

}  // namespace

ElasticJoins elastic_joins(const Deployment& d) {
  ElasticJoins e;
  e.description = Json::array();
  const auto& s = d.scenario;
  const bool any = !s.elastic.decode_joins_s.empty() || !s.elastic.prefill_joins_s.empty();
  const std::vector<ConnectionRow> rows = any ? connection_table(d) : std::vector<ConnectionRow>{};
  role_joins(s.elastic.decode_joins_s, s.decode.instances, "decode", cold_start(rows, "decode"),
             s.elastic.join_warmup_s, s.file, e.decode_ready_s, e.decode_joined, e.description);
  role_joins(s.elastic.prefill_joins_s, s.prefill.instances, "prefill", cold_start(rows, "prefill"),
             s.elastic.join_warmup_s, s.file, e.prefill_ready_s, e.prefill_joined, e.description);
  for (const auto& r : rows)
    if (r.purpose == "KV transfer" && r.side == "prefill" && r.lib)
      e.kv_connect_s = r.setup.peer_connect_us / 1e6;
  return e;
}

}  // namespace pdsim

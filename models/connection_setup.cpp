#include "models/connection_setup.hpp"

#include <algorithm>

#include "sim/core/data_path.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

const ConnCost* ConnectionSetup::cost(const std::string& kind, const std::string& library) const {
  const ConnCost* any = nullptr;
  for (const auto& c : costs) {
    if (c.kind != kind) continue;
    if (c.library == library) return &c;
    if (c.library.empty()) any = &c;
  }
  return any;
}

ConnectionSetup load_connection_setup(const std::string& name_or_path, const std::string& from_file,
                                      const std::string& field) {
  JsonNode n = load_named("models/catalog/connection_setup", name_or_path, from_file, field);
  n.expect_only({"schema", "name", "nic", "costs", "qp_limit_per_nic", "qp_limit_source",
                 "context_cache", "provenance"});
  if (n.at("schema").string() != "pdsim.connection_setup/1")
    n.at("schema").fail("expected \"pdsim.connection_setup/1\"");
  ConnectionSetup s;
  s.name = n.at("name").string();
  s.nic = n.at("nic").string();
  const JsonNode costs = n.at("costs");
  if (!costs.is_array()) costs.fail("expected an array");
  for (size_t i = 0; i < costs.size(); ++i) {
    const JsonNode c = costs.at(i);
    c.expect_only({"kind", "library", "us", "source"});
    ConnCost cc;
    cc.kind = c.at("kind").string();
    cc.library = c.str_or("library", "");
    for (const auto& seen : s.costs)
      if (seen.kind == cc.kind && seen.library == cc.library)
        c.at("kind").fail("one figure per kind and library, got \"" + cc.kind + "\" again");
    if (c.has("us")) {  // no "us": no published figure
      cc.us = c.at("us").non_negative();
      if (cc.us > 6e7) c.at("us").fail("expected at most 60 s per object");
      cc.known = true;
    }
    cc.source = c.at("source").string();
    s.costs.push_back(cc);
  }
  if (n.has("qp_limit_per_nic")) {
    const int64_t v = n.at("qp_limit_per_nic").positive_integer();
    if (v > 1 << 30) n.at("qp_limit_per_nic").fail("expected at most 2^30");
    s.qp_limit_per_nic = static_cast<int>(v);
    s.qp_limit_source = n.at("qp_limit_source").string();
  }
  s.context_cache = n.at("context_cache").string();
  s.provenance = read_provenance(n.at("provenance"));
  return s;
}

namespace {

// Objects one rank holds per peer rank of each object (the rank_peer* scopes), in the order of
// `lib.objects`; 0 for objects that do not grow with peers.
std::vector<double> per_peer_objects(const ConnectionLibrary& lib, const ConnCounts& c,
                                     const ConnGroup& g) {
  std::vector<double> out;
  for (const ConnObject& o : lib.objects) {
    const double f = object_factor(o, c);
    // A new group member is one more peer of every object the rank holds per group rank.
    const double per_peer =
        o.per == ConnScope::kRankGroup ? f : f * units_per_peer(o.per, g, c.nics_per_rank);
    out.push_back(per_peer);
  }
  return out;
}

}  // namespace

ConnSetupTimes setup_times(const ConnectionLibrary& lib, const ConnCounts& counts,
                           const ConnGroup& g, const ConnectionSetup& costs, int new_host_ranks) {
  ConnSetupTimes t;
  const int host_ranks = std::min(g.ranks, g.ranks_per_host);
  double rank_us = 0;
  for (const auto& o : counts.objects) {
    const ConnCost* c = costs.cost(o.kind, lib.name);
    if (c == nullptr || !c->known) {
      t.unknown_kinds.push_back(o.kind);
      continue;
    }
    rank_us += o.per_rank * c->us;
  }
  const std::vector<double> per_peer = per_peer_objects(lib, counts, g);
  double added_per_rank = 0;
  t.peer_known = true;
  for (size_t i = 0; i < lib.objects.size(); ++i) {
    if (per_peer[i] == 0) continue;
    added_per_rank += per_peer[i] * new_host_ranks;
    const ConnCost* c = costs.cost(lib.objects[i].kind, lib.name);
    if (c == nullptr || !c->known)
      t.peer_known = false;
    else
      t.peer_connect_us += per_peer[i] * c->us;
  }
  const bool all_known = t.unknown_kinds.empty();
  t.cold_known = lib.established == "lazy" || all_known;
  t.cold_start_us = lib.established == "eager" ? rank_us : 0;
  const double added = added_per_rank * host_ranks * g.worlds_per_host;
  if (lib.join == "global_reinit") {
    double total = 0;
    for (const auto& o : counts.objects) total += o.per_host;
    t.join_objects_per_host = total + added;
    t.join_known = all_known;
    t.join_us = rank_us + t.peer_connect_us * new_host_ranks;
    t.join_what =
        "every rank of the group tears down and rebuilds all of its connections "
        "(serving stops for the re-init)";
  } else if (lib.join == "new_communicator") {
    t.join_objects_per_host = added;
    t.join_known = false;
    t.join_what =
        "a new communicator (ncclCommGrow: full transport init, no published time); "
        "its connections on first use";
  } else {
    t.join_objects_per_host = added;
    t.join_known = t.peer_known;
    t.join_us = t.peer_connect_us * new_host_ranks;
    t.join_what = "the new host's peers only, each on the first transfer to it (no barrier)";
  }
  return t;
}

}  // namespace pdsim

#include "models/connection_library.hpp"

#include <array>
#include <utility>

#include "sim/core/data_path.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

namespace {

constexpr std::array<std::pair<ConnScope, const char*>, 8> kScopes{{
    {ConnScope::kRank, "rank"},
    {ConnScope::kRankNic, "rank_nic"},
    {ConnScope::kRankPeer, "rank_peer"},
    {ConnScope::kRankPeerNic, "rank_peer_nic"},
    {ConnScope::kRankPeerNicPair, "rank_peer_nic_pair"},
    {ConnScope::kRankGroup, "rank_group"},
    {ConnScope::kRankHostNic, "rank_host_nic"},
    {ConnScope::kRankPeerHostNicPair, "rank_peer_host_nic_pair"},
}};

const std::vector<std::string> kPeerRules{"all_other_ranks", "remote_host_ranks",
                                          "other_role_ranks", "pp_neighbours"};
const std::vector<std::string> kKinds{"rc_qp",       "srd_qp",   "dc_qp", "address_handle",
                                      "fi_endpoint", "av_entry", "cq"};

std::string one_of(const JsonNode& n, const std::vector<std::string>& allowed) {
  const std::string v = n.string();
  std::string list;
  for (const auto& a : allowed) {
    if (v == a) return v;
    list += (list.empty() ? "" : ", ") + a;
  }
  n.fail("expected one of " + list + ", got \"" + excerpt(v) + "\"");
}

ConnObject read_object(const JsonNode& n, const ConnectionLibrary& lib) {
  n.expect_only({"kind", "per", "count", "times", "source"});
  ConnObject o;
  o.kind = one_of(n.at("kind"), kKinds);
  const std::string per = n.at("per").string();
  bool found = false;
  for (const auto& [scope, name] : kScopes)
    if (per == name) o.per = scope, found = true;
  if (!found) {
    std::vector<std::string> names;
    for (const auto& s : kScopes) names.emplace_back(s.second);
    one_of(n.at("per"), names);
  }
  const JsonNode c = n.at("count");
  if (c.is_string()) {
    o.count_rule = one_of(c, {"deepep_num_qps_per_rank"});
    if (lib.num_sms <= 0) c.fail("deepep_num_qps_per_rank needs the library's num_sms");
  } else {
    const int64_t v = c.positive_integer();
    if (v > 1 << 20) c.fail("expected at most 2^20");
    o.count = static_cast<int>(v);
  }
  if (n.has("times")) {
    o.times = one_of(n.at("times"), {"nccl_p2p_channels_per_peer"});
    if (lib.p2p_per_channel_GBps <= 0)
      n.at("times").fail("nccl_p2p_channels_per_peer needs the library's p2p_per_channel_GBps");
  }
  o.source = n.at("source").string();
  return o;
}

}  // namespace

std::string scope_name(ConnScope s) {
  for (const auto& [scope, name] : kScopes)
    if (scope == s) return name;
  return "?";
}

ConnectionLibrary load_connection_library(const std::string& name_or_path,
                                          const std::string& from_file, const std::string& field) {
  JsonNode n = load_named("models/catalog/connection_library", name_or_path, from_file, field);
  n.expect_only({"schema", "name", "library", "transport", "peers", "objects", "memory", "num_sms",
                 "num_sms_source", "p2p_per_channel_GBps", "p2p_source", "max_endpoints_per_nic",
                 "max_endpoints_source", "established", "join", "join_source", "provenance"});
  if (n.at("schema").string() != "pdsim.connection_library/1")
    n.at("schema").fail("expected \"pdsim.connection_library/1\"");
  ConnectionLibrary l;
  l.name = n.at("name").string();
  l.library = n.at("library").string();
  l.transport = one_of(n.at("transport"), {"rc", "srd"});
  l.peers = one_of(n.at("peers"), kPeerRules);
  if (n.has("num_sms")) {
    const int64_t v = n.at("num_sms").positive_integer();
    if (v > 1024) n.at("num_sms").fail("expected at most 1024 (SMs of one GPU)");
    l.num_sms = static_cast<int>(v);
    n.at("num_sms_source").string();
  }
  if (n.has("p2p_per_channel_GBps")) {
    l.p2p_per_channel_GBps = n.at("p2p_per_channel_GBps").positive();
    n.at("p2p_source").string();
  }
  if (n.has("max_endpoints_per_nic")) {
    const int64_t v = n.at("max_endpoints_per_nic").positive_integer();
    if (v > 1 << 30) n.at("max_endpoints_per_nic").fail("expected at most 2^30");
    l.max_endpoints_per_nic = static_cast<int>(v);
    n.at("max_endpoints_source").string();
  }
  const JsonNode objs = n.at("objects");
  if (!objs.is_array() || objs.size() == 0) objs.fail("expected a non-empty array");
  for (size_t i = 0; i < objs.size(); ++i) l.objects.push_back(read_object(objs.at(i), l));
  const JsonNode mem = n.at("memory");
  if (!mem.is_array()) mem.fail("expected an array");
  for (size_t i = 0; i < mem.size(); ++i) {
    const JsonNode m = mem.at(i);
    m.expect_only({"kind", "bytes", "in", "estimate", "source"});
    ConnMemory cm;
    cm.kind = one_of(m.at("kind"), kKinds);
    bool counted = false;
    for (const auto& o : l.objects) counted = counted || o.kind == cm.kind;
    if (!counted) m.at("kind").fail("a kind the library's objects list");
    cm.bytes = m.at("bytes").positive();
    if (cm.bytes > 1ull << 34) m.at("bytes").fail("expected at most 16 GiB per object");
    cm.in = one_of(m.at("in"), {"host", "gpu"});
    cm.estimate = m.at("estimate").boolean();
    cm.source = m.at("source").string();
    l.memory.push_back(cm);
  }
  l.established = one_of(n.at("established"), {"eager", "lazy"});
  l.join = one_of(n.at("join"), {"global_reinit", "new_communicator", "incremental"});
  l.join_source = n.at("join_source").string();
  l.provenance = read_provenance(n.at("provenance"));
  return l;
}

}  // namespace pdsim

#include "models/connection_count.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pdsim {

int deepep_num_qps_per_rank(const std::string& mode, int num_experts, int ranks, int num_sms) {
  const int local = ranks > 0 ? num_experts / ranks : 0;
  if (mode == "normal") return num_sms;
  if (mode == "auto") return std::max(num_sms, local);
  return local;
}

int nccl_p2p_channels_per_peer(double rank_nic_GBps, double per_channel_GBps) {
  const int need = std::max(1, static_cast<int>(std::ceil(rank_nic_GBps / per_channel_GBps)));
  int pow2 = 1;
  while (pow2 < need) pow2 *= 2;
  return pow2;
}

double ConnCounts::per_host(const std::string& kind) const {
  for (const auto& o : objects)
    if (o.kind == kind) return o.per_host;
  return 0;
}

double ConnCounts::queue_pairs_per_host() const {
  return per_host("rc_qp") + per_host("srd_qp") + per_host("dc_qp");
}

double object_factor(const ConnObject& o, const ConnCounts& c) {
  const double f = o.count_rule.empty() ? o.count : c.num_qps_per_rank;
  return o.times.empty() ? f : f * c.channels_per_peer;
}

double units_per_peer(ConnScope per, const ConnGroup& g, double nics_per_rank) {
  switch (per) {
    case ConnScope::kRankPeer:
      return 1;
    case ConnScope::kRankPeerNic:
      return nics_per_rank;
    case ConnScope::kRankPeerNicPair:
      return nics_per_rank * g.peer_nics_per_rank;
    case ConnScope::kRankPeerHostNicPair:
      return static_cast<double>(g.nics_per_host) * g.peer_nics_per_host;
    default:
      return 0;
  }
}

ConnCounts count_connections(const ConnectionLibrary& lib, const ConnGroup& g) {
  if (g.ranks < 1 || g.ranks_per_host < 1 || g.worlds_per_host < 1 || g.nics_per_host < 1)
    throw std::invalid_argument("connection group without ranks or NICs");
  ConnCounts c;
  const int per_host_ranks = std::min(g.ranks, g.ranks_per_host);
  if (lib.peers == "all_other_ranks")
    c.peers_per_rank = g.ranks - 1;
  else if (lib.peers == "remote_host_ranks")
    c.peers_per_rank = g.ranks - per_host_ranks;
  else
    c.peers_per_rank = g.peer_ranks;
  c.nics_per_rank = std::max(1.0, static_cast<double>(g.nics_per_host) / per_host_ranks);
  const double p = c.peers_per_rank, n = c.nics_per_rank;
  for (const auto& o : lib.objects) {
    if (o.count_rule == "deepep_num_qps_per_rank")
      c.num_qps_per_rank =
          deepep_num_qps_per_rank(g.deepep_mode, g.num_experts, g.ranks, lib.num_sms);
    if (o.times == "nccl_p2p_channels_per_peer")
      c.channels_per_peer = nccl_p2p_channels_per_peer(g.rank_nic_GBps, lib.p2p_per_channel_GBps);
  }
  for (const auto& o : lib.objects) {
    const double factor = object_factor(o, c);
    double scale = p * units_per_peer(o.per, g, n);
    if (o.per == ConnScope::kRank) scale = 1;
    if (o.per == ConnScope::kRankNic) scale = n;
    if (o.per == ConnScope::kRankHostNic) scale = g.nics_per_host;
    if (o.per == ConnScope::kRankGroup) scale = g.ranks;
    ConnObjectCount oc;
    oc.kind = o.kind;
    oc.per_rank = factor * scale;
    oc.per_host = oc.per_rank * per_host_ranks * g.worlds_per_host;
    oc.per_nic = oc.per_host / g.nics_per_host;
    auto same = std::find_if(c.objects.begin(), c.objects.end(),
                             [&](const ConnObjectCount& x) { return x.kind == o.kind; });
    if (same == c.objects.end()) {
      c.objects.push_back(oc);
    } else {
      same->per_rank += oc.per_rank;
      same->per_host += oc.per_host;
      same->per_nic += oc.per_nic;
    }
  }
  for (const auto& o : c.objects) {
    auto mem = std::find_if(lib.memory.begin(), lib.memory.end(),
                            [&](const ConnMemory& x) { return x.kind == o.kind; });
    if (mem == lib.memory.end()) {
      c.memory_uncounted = true;
      continue;
    }
    (mem->in == "gpu" ? c.gpu_bytes_per_host : c.host_bytes_per_host) += o.per_host * mem->bytes;
    c.memory_estimated = c.memory_estimated || mem->estimate;
  }
  return c;
}

}  // namespace pdsim

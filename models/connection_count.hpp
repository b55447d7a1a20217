#pragma once
// How many connection objects a library (models/connection_library.hpp) holds for one group of
// ranks, per rank, per NIC and per host, and their memory. Peers per rank by the library's rule:
//   all_other_ranks    N - 1 (NVSHMEM connects every PE but itself, same-host ones too)
//   remote_host_ranks  N - G (UCCL-EP's low-latency mode skips ranks on its own host)
//   other_role_ranks   the other side's ranks (KV: every decode rank a prefill rank sends to
//                      over a long run, and back: an upper bound reached once every pair has
//                      exchanged a request)
//   pp_neighbours      the adjacent pipeline stages on other hosts (0 to 2)
// Objects a library creates per NIC are counted per rank on the rank's own NICs: a rank uses
// max(1, NICs / ranks per host) of them (a GPU's nearest NICs; a NIC shared by two ranks when
// the library uses fewer NICs than there are GPUs). Per NIC = per host / NICs used.
#include <string>
#include <vector>

#include "models/connection_library.hpp"

namespace pdsim {

struct ConnGroup {
  int ranks = 1;                  // N: ranks of this side of the group
  int ranks_per_host = 1;         // G
  int worlds_per_host = 1;        // independent groups like this one on each host (DeepEP's normal
                                  // mode: one NVSHMEM world per rail, one rank of each per host)
  int nics_per_host = 1;          // NICs the library uses on one host of this side
  int peer_ranks = 0;             // other_role_ranks / pp_neighbours: the peers of one rank
  double peer_nics_per_rank = 1;  // NICs per peer rank (rank_peer_nic_pair)
  int peer_nics_per_host = 1;     // NICs of a peer's host (rank_peer_host_nic_pair)
  int num_experts = 0;            // deepep_num_qps_per_rank
  std::string deepep_mode = "low_latency";  // low_latency, normal or auto (SGLang's rule)
  double rank_nic_GBps = 0;  // nccl_p2p_channels_per_peer: the NICs of one rank, GB/s
};

struct ConnObjectCount {
  std::string kind;
  double per_rank = 0, per_host = 0, per_nic = 0;
};

struct ConnCounts {
  std::vector<ConnObjectCount> objects;  // one per kind, in the library's order
  int peers_per_rank = 0;
  double nics_per_rank = 1;
  int num_qps_per_rank = 0;        // the DeepEP factor, when the library uses it
  int channels_per_peer = 0;       // the NCCL factor, when the library uses it
  double host_bytes_per_host = 0;  // memory the source fixes (estimates flagged below)
  double gpu_bytes_per_host = 0;
  bool memory_estimated = false;        // some of the bytes are mlx5-rule estimates
  bool memory_uncounted = false;        // some object kinds have no figure (provider-defined)
  double queue_pairs_per_host() const;  // rc_qp + srd_qp + dc_qp
  double per_host(const std::string& kind) const;
};

// InputError-free: the group is built by code; throws std::invalid_argument on a group that
// cannot exist (no ranks, no NICs).
ConnCounts count_connections(const ConnectionLibrary& lib, const ConnGroup& g);

// The objects of one kind a rank holds per unit of its scope: the catalog's count or the library's
// rule (DeepEP's num_qps_per_rank), times NCCL's channels per peer where the object says so; `c`
// carries the rules' values (count_connections fills them in).
double object_factor(const ConnObject& o, const ConnCounts& c);
// Units of a peer scope one peer adds to a rank (rank_peer 1, rank_peer_nic the rank's NICs,
// rank_peer_nic_pair its NICs x the peer's, rank_peer_host_nic_pair its host's NICs x the peer
// host's); 0 for scopes that do not grow with peers.
double units_per_peer(ConnScope per, const ConnGroup& g, double nics_per_rank);

// SGLang's DeepEPBuffer.get_deepep_buffer: low_latency num_experts / ranks, normal num_sms,
// auto the larger of the two.
int deepep_num_qps_per_rank(const std::string& mode, int num_experts, int ranks, int num_sms);
// NCCL's default NCCL_NCHANNELS_PER_NET_PEER for one net peer: max(1, ceil(GB/s / per channel))
// rounded up to a power of two.
int nccl_p2p_channels_per_peer(double rank_nic_GBps, double per_channel_GBps);

}  // namespace pdsim

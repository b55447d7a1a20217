#pragma once
// What connection state one library creates (models/catalog/connection_library), read from its
// source: the objects (RC QPs, SRD QPs, address handles, libfabric endpoints, address-vector
// entries, CQs), how each count scales (per rank, per peer, per NIC, per pair of NICs), their
// memory where the source fixes queue depths, whether they are made at init or on first use, and
// what a node joining costs the library (a global re-init, a new communicator, or nothing but
// the new peers' objects). The counts themselves are models/connection_count.hpp.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// How one object's count scales. With p peers per rank, n NICs per rank (local) and m per peer
// rank (remote), K NICs on the rank's host and K' on a peer's, and g ranks in the group: per rank
// `count` x
//   kRank 1 · kRankNic n · kRankPeer p · kRankPeerNic p·n · kRankPeerNicPair p·n·m · kRankGroup g
//   kRankHostNic K · kRankPeerHostNicPair p·K·K' (a library whose every rank opens every NIC of
//   its host, as NIXL's libfabric agents do)
enum class ConnScope {
  kRank,
  kRankNic,
  kRankPeer,
  kRankPeerNic,
  kRankPeerNicPair,
  kRankGroup,
  kRankHostNic,
  kRankPeerHostNicPair
};

struct ConnObject {
  std::string
      kind;  // "rc_qp", "srd_qp", "dc_qp", "address_handle", "fi_endpoint", "av_entry", "cq"
  ConnScope per = ConnScope::kRank;
  int count = 0;           // fixed factor (0 when `count_rule` gives it)
  std::string count_rule;  // "deepep_num_qps_per_rank" or "" (the factor is `count`)
  std::string times;       // "" or "nccl_p2p_channels_per_peer": a second factor
  std::string source;
};

struct ConnMemory {
  std::string kind;
  double bytes = 0;
  std::string in;  // "host" or "gpu"
  bool estimate = false;
  std::string source;
};

struct ConnectionLibrary {
  std::string name, library;
  std::string transport;  // "rc" or "srd"
  std::string peers;      // which ranks a rank connects to (connection_count.hpp lists the rules)
  std::vector<ConnObject> objects;
  std::vector<ConnMemory> memory;
  int num_sms = 0;                  // deepep_num_qps_per_rank: DeepEP's num_sms
  double p2p_per_channel_GBps = 0;  // nccl_p2p_channels_per_peer: NCCL_P2P_PER_CHANNEL_NET_BW
  int max_endpoints_per_nic = 0;    // 0 = no cap
  std::string established;          // "eager" (at init, every peer) or "lazy" (first use)
  std::string join;                 // "global_reinit", "new_communicator" or "incremental"
  std::string join_source;
  Json provenance;
};

ConnectionLibrary load_connection_library(const std::string& name_or_path,
                                          const std::string& from_file = "",
                                          const std::string& field = "connection_library");

std::string scope_name(ConnScope s);

}  // namespace pdsim

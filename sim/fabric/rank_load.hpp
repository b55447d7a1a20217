#pragma once
// What one EP rank sends and receives in one all-to-all phase, split by path: copies to peers on
// the same node (and to itself) travel over NVLink when the backend uses it, the rest over RDMA.
// In combine the expert outputs travel back, so the dispatch matrix is read transposed.
#include <vector>

#include "sim/fabric/alltoall.hpp"

namespace pdsim {

struct RankLoad {
  double remote_send_msgs = 0, remote_send_bytes = 0;
  double remote_recv_msgs = 0, remote_recv_bytes = 0;
  double nvlink_send_msgs = 0, nvlink_send_bytes = 0;
  double nvlink_recv_msgs = 0, nvlink_recv_bytes = 0;
  int remote_send_peers = 0, remote_recv_peers = 0;  // peers with at least one RDMA message
};

// One entry per rank. With `intranode_nvlink` false every copy except those to itself uses RDMA
// (DeepEP's original pure-RDMA low-latency kernels).
std::vector<RankLoad> rank_loads(const A2AConfig& c, const Routing& r, A2APhase phase,
                                 bool intranode_nvlink);

// Zero-byte count/flag signals one rank sends to ranks on other nodes in one low-latency phase
// (DeepEP's internode_ll.cu and UCCL-EP's port of it): dispatch signals every expert on other
// nodes, also with a count of 0 (remote ranks × experts per rank); combine one flag per (local
// expert, rank on another node): both are remote ranks × experts per rank. 0 when all EP ranks
// share one node.
double ll_remote_signals(const A2AConfig& c);

}  // namespace pdsim

#include "sim/fabric/rank_load.hpp"

#include <algorithm>

namespace pdsim {

std::vector<RankLoad> rank_loads(const A2AConfig& c, const Routing& r, A2APhase phase,
                                 bool intranode_nvlink) {
  const int n = r.ranks;
  const double msg_bytes = a2a_message_bytes(c, phase);
  std::vector<RankLoad> loads(static_cast<size_t>(n));
  for (int s = 0; s < n; ++s) {
    for (int d = 0; d < n; ++d) {
      // Messages s→d in this phase: dispatch copies s→d, or combine returning d's tokens from s.
      const int msgs = phase == A2APhase::dispatch ? r.at(s, d) : r.at(d, s);
      if (msgs == 0) continue;
      const double m = msgs, bytes = m * msg_bytes;
      RankLoad& from = loads[static_cast<size_t>(s)];
      RankLoad& to = loads[static_cast<size_t>(d)];
      const bool local = s == d || (intranode_nvlink && c.node_of(s) == c.node_of(d));
      if (local) {
        from.nvlink_send_msgs += m;
        from.nvlink_send_bytes += bytes;
        to.nvlink_recv_msgs += m;
        to.nvlink_recv_bytes += bytes;
      } else {
        from.remote_send_msgs += m;
        from.remote_send_bytes += bytes;
        ++from.remote_send_peers;
        to.remote_recv_msgs += m;
        to.remote_recv_bytes += bytes;
        ++to.remote_recv_peers;
      }
    }
  }
  return loads;
}

double ll_remote_signals(const A2AConfig& c) {
  const int nodes = (c.ep_ranks + c.gpus_per_node - 1) / c.gpus_per_node;
  if (nodes <= 1) return 0;
  const int remote_ranks = c.ep_ranks - std::min(c.ep_ranks, c.gpus_per_node);
  return static_cast<double>(remote_ranks) * c.experts_per_rank();
}

}  // namespace pdsim

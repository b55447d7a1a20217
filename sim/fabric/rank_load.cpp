#include "sim/fabric/rank_load.hpp"

#include <algorithm>

namespace pdsim {

std::vector<RankLoad> rank_loads(const A2AConfig& c, const Routing& r, A2APhase phase,
                                 bool intranode_nvlink) {
  const int n = r.ranks;
  const double msg_bytes = a2a_message_bytes(c, phase);
  std::vector<RankLoad> loads(static_cast<size_t>(n));
  const bool dispatch = phase == A2APhase::dispatch;
  // The matrix is read in memory order in both phases: combine reads it transposed (d's tokens
  // return from s), so there the outer index is the destination. Each rank's sums still take
  // their terms in the same order (ascending peer), so the totals are the same to the last bit.
  for (int a = 0; a < n; ++a) {
    const int* row = r.copies.data() + static_cast<size_t>(a) * static_cast<size_t>(n);
    for (int b = 0; b < n; ++b) {
      // Messages s→d in this phase: dispatch copies s→d, or combine returning d's tokens from s.
      const int msgs = row[b];
      if (msgs == 0) continue;
      const int s = dispatch ? a : b, d = dispatch ? b : a;
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

#include <stdexcept>

#include "sim/fabric/alltoall.hpp"

namespace pdsim {

double a2a_message_bytes(const A2AConfig& c, A2APhase phase) {
  const double h = c.hidden;
  // FP8 payload + one FP32 scale per 128-element block + 16 B of routing metadata; BF16 back.
  if (phase == A2APhase::dispatch) return h + h / 128.0 * 4.0 + 16.0;
  return 2.0 * h;
}

Routing sample_routing(const A2AConfig& c, const std::vector<int>& tokens_per_rank, Rng& rng) {
  if (c.ep_ranks <= 0 || c.num_experts % c.ep_ranks != 0)
    throw std::invalid_argument("sample_routing: experts must divide evenly over EP ranks");
  if (static_cast<int>(tokens_per_rank.size()) != c.ep_ranks)
    throw std::invalid_argument("sample_routing: need one token count per EP rank");
  Routing r;
  r.ranks = c.ep_ranks;
  r.copies.assign(static_cast<size_t>(c.ep_ranks) * static_cast<size_t>(c.ep_ranks), 0);
  r.tokens_per_expert.assign(static_cast<size_t>(c.num_experts), 0);
  const int per_rank = c.experts_per_rank();
  std::vector<int> chosen;
  for (int src = 0; src < c.ep_ranks; ++src) {
    for (int t = 0; t < tokens_per_rank[static_cast<size_t>(src)]; ++t) {
      rng.sample_distinct(c.num_experts, c.top_k, chosen);
      for (int e : chosen) {
        ++r.tokens_per_expert[static_cast<size_t>(e)];
        ++r.copies[static_cast<size_t>(src * c.ep_ranks + e / per_rank)];
      }
    }
  }
  return r;
}

}  // namespace pdsim

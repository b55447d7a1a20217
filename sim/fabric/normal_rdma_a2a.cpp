#include "sim/fabric/normal_rdma_a2a.hpp"

#include <algorithm>
#include <cmath>

#include "sim/fabric/linear_a2a_backend.hpp"

namespace pdsim {
namespace {

// P(a token's k distinct experts, drawn uniformly from `experts`, miss a set of `held`).
double miss_probability(int experts, int held, int k) {
  double p = 1;
  for (int i = 0; i < k; ++i)
    p *= static_cast<double>(experts - held - i) / static_cast<double>(experts - i);
  return std::max(0.0, p);
}

}  // namespace

std::optional<NormalRdmaRates> normal_rdma_rates(const FabricProfile& p,
                                                 const std::string& backend) {
  if (!p.a2a.is_object() || !p.a2a.contains(backend)) return std::nullopt;
  const JsonNode b = a2a_block(p, backend);
  if (!b.has("normal_dispatch_rdma_GBps")) return std::nullopt;
  NormalRdmaRates r;
  r.ranks = static_cast<int>(b.at("normal_ranks").positive_integer());
  r.tokens_per_rank = b.at("normal_tokens_per_rank").positive();
  r.dispatch_GBps = b.at("normal_dispatch_rdma_GBps").positive();
  r.combine_GBps = b.at("normal_combine_rdma_GBps").positive();
  return r;
}

double normal_rdma_bytes_per_rank(const A2AConfig& c, double tokens_per_rank, A2APhase phase) {
  const int nodes = (c.ep_ranks + c.gpus_per_node - 1) / c.gpus_per_node;
  if (nodes <= 1) return 0;
  const int per_node = c.experts_per_rank() * c.gpus_per_node;
  const double other_nodes = (nodes - 1) * (1 - miss_probability(c.num_experts, per_node, c.top_k));
  const double token_bytes =
      phase == A2APhase::dispatch ? c.hidden * (1 + 4.0 / 128) : 2.0 * c.hidden;
  return tokens_per_rank * other_nodes * token_bytes;
}

double normal_rdma_a2a_us(const NormalRdmaRates& r, double rdma_bytes_per_rank, A2APhase phase) {
  const double GBps = phase == A2APhase::dispatch ? r.dispatch_GBps : r.combine_GBps;
  return rdma_bytes_per_rank / (GBps * 1e9) * 1e6;
}

}  // namespace pdsim

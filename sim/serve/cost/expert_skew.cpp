#include "sim/serve/cost/expert_skew.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/scenario/profiled_section.hpp"

namespace pdsim {

void ExpertSkewConfig::validate(ExpertSkewConfig& c, const JsonNode& n) {
  profiled::need_provenance(n, c.enabled, c.provenance);
}

ExpertSkew::ExpertSkew(const A2AConfig& c, double zipf_s, bool eplb, uint64_t seed) {
  const int n = c.num_experts, per_rank = c.experts_per_rank();
  Rng rng(seed);
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int i = n - 1; i > 0; --i)
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(rng.uniform_int(0, i))]);
  std::vector<double> pop(static_cast<size_t>(n));  // by expert id
  double sum = 0;
  for (int r = 0; r < n; ++r)
    sum += pop[static_cast<size_t>(order[static_cast<size_t>(r)])] =
        1.0 / std::pow(r + 1.0, zipf_s);
  for (double& p : pop) p /= sum;
  weight_.assign(static_cast<size_t>(n), 0);
  if (!eplb) {
    weight_ = pop;
    return;
  }
  std::vector<int> by_load(static_cast<size_t>(n));
  std::iota(by_load.begin(), by_load.end(), 0);
  std::stable_sort(by_load.begin(), by_load.end(), [&](int a, int b) {
    return pop[static_cast<size_t>(a)] > pop[static_cast<size_t>(b)];
  });
  std::vector<double> load(static_cast<size_t>(c.ep_ranks), 0);
  std::vector<int> used(static_cast<size_t>(c.ep_ranks), 0);
  for (int e : by_load) {
    int best = -1;
    for (int r = 0; r < c.ep_ranks; ++r)
      if (used[static_cast<size_t>(r)] < per_rank &&
          (best < 0 || load[static_cast<size_t>(r)] < load[static_cast<size_t>(best)]))
        best = r;
    weight_[static_cast<size_t>(best * per_rank + used[static_cast<size_t>(best)]++)] =
        pop[static_cast<size_t>(e)];
    load[static_cast<size_t>(best)] += pop[static_cast<size_t>(e)];
  }
}

Routing ExpertSkew::sample(const A2AConfig& c, const std::vector<int>& tokens_per_rank,
                           Rng& rng) const {
  Routing r;
  r.ranks = c.ep_ranks;
  r.copies.assign(static_cast<size_t>(c.ep_ranks) * static_cast<size_t>(c.ep_ranks), 0);
  r.tokens_per_expert.assign(static_cast<size_t>(c.num_experts), 0);
  const int per_rank = c.experts_per_rank();
  std::vector<char> taken(static_cast<size_t>(c.num_experts));
  for (int src = 0; src < c.ep_ranks; ++src)
    for (int t = 0; t < tokens_per_rank[static_cast<size_t>(src)]; ++t) {
      std::fill(taken.begin(), taken.end(), 0);
      double left = 1.0;
      for (int k = 0; k < c.top_k; ++k) {  // weighted draws without replacement
        double u = rng.uniform01() * left;
        int e = 0;
        for (; e < c.num_experts - 1; ++e) {
          if (taken[static_cast<size_t>(e)]) continue;
          if (u < weight_[static_cast<size_t>(e)]) break;
          u -= weight_[static_cast<size_t>(e)];
        }
        while (taken[static_cast<size_t>(e)]) --e;  // rounding at the end of the range
        taken[static_cast<size_t>(e)] = 1;
        left -= weight_[static_cast<size_t>(e)];
        ++r.tokens_per_expert[static_cast<size_t>(e)];
        ++r.copies[static_cast<size_t>(src * c.ep_ranks + e / per_rank)];
      }
    }
  return r;
}

}  // namespace pdsim

PDSIM_CONFIG_SECTION("tail", "expert_skew", pdsim::ExpertSkewConfig,
                     "expert-load skew, with or without EPLB placement")

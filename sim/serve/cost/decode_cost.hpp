#pragma once
// The decode cost model's building blocks, memoised (decode_iteration_timer.hpp composes them
// into an iteration):
//   - per DP-attention rank, the cost of its attention layer and dense part in the verify (or
//     plain) forward and of a draft step and the draft-extend; re-computed when the rank's set of
//     requests changes or its total context has grown by more than `recompute_tolerance`;
//   - per MoE layer, on the vector of tokens per rank: routing → dispatch, expert GEMMs on each
//     rank (slowest and mean), combine; averaged over `routing_samples` routing draws seeded
//     from the key (so the memo does not depend on call order).
// Ranks without requests cost nothing here but still join every all-to-all.
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/op_name_set.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/expert_skew.hpp"
#include "sim/serve/entities/rank_state.hpp"

namespace pdsim {

class DecodeCostModel {
 public:
  struct RankCosts {          // µs
    double attn_verify = 0;   // one MoE layer's attention block, verify (or plain) forward
    double other_verify = 0;  // dense layers, embedding, LM head of the verify forward
    double draft_step = 0;    // one draft forward, 1 token per request (speculative only)
    double draft_extend = 0;  // the draft-extend forward (speculative only)
  };
  struct MoeLayer {
    double dispatch_us = 0, combine_us = 0, experts_us = 0, experts_mean_us = 0;
    std::map<std::string, double> dispatch_terms, combine_terms;
    long uses = 0;  // MoE layers costed with this entry (the caller counts them)
  };

  DecodeCostModel(const Deployment& d, uint64_t seed);
  // Rank `r`'s costs, refreshed from `s` when needed; `pad_to` > its requests: a CUDA graph
  // replay padded to that captured batch size.
  const RankCosts& rank(size_t r, const RankState& s, int pad_to = 0);
  // Every rank's costs as last refreshed.
  const std::vector<RankCosts>& rank_costs() const { return costs_; }
  MoeLayer& moe_layer(const std::vector<int>& tokens_per_rank);
  void count_phases(long n) { phases_ += n; }
  // Memo sizes, a2a term totals, ops costed outside the GPU profile's range.
  Json stats() const;

 private:
  struct RankCache {
    uint64_t version = ~0ULL;
    double sum_context = -1;
    int pad_to = 0;
  };
  double cost_us(const StepCost& c);  // total, noting ops outside the profile's measured range
  // One rank's expert work in a MoE layer: the same (load, shared tokens) recurs across ranks,
  // routing samples and memo entries, so its cost is computed once.
  double experts_us(const ExpertsLoad& load, int shared_tokens);

  const Deployment& d_;
  uint64_t seed_;
  std::vector<RankCache> cache_;
  std::vector<RankCosts> costs_;
  std::unordered_map<std::string, MoeLayer> memo_;
  std::string key_;  // moe_layer's lookup key, reused so a memo hit allocates nothing
  struct ExpertsKey {
    ExpertsLoad load;
    int shared_tokens = 0;
    bool operator==(const ExpertsKey&) const = default;
  };
  struct ExpertsKeyHash {
    size_t operator()(const ExpertsKey& k) const;
  };
  std::unordered_map<ExpertsKey, double, ExpertsKeyHash> experts_memo_;
  long phases_ = 0;
  OpNameSet out_of_range_ops_;
  std::unique_ptr<ExpertSkew> skew_;  // tail.expert_skew, when enabled
};

}  // namespace pdsim

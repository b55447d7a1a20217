#pragma once
// Cost of one decode iteration of a DP-attention + EP instance. An iteration is, with EAGLE,
// num_steps draft forwards (1 token per request) + one verify forward of the target (num_draft
// tokens per request) + one draft-extend forward (num_draft tokens per request); without
// speculation, one target forward. Every MoE layer is: per-rank attention (the slowest rank
// sets the pace) → dispatch (barrier) → expert GEMMs on each rank (slowest rank) → combine
// (barrier). Ranks without requests still join every all-to-all.
//
// Costs are memoised: the MoE layer (routing → dispatch, expert load, combine) on the vector of
// tokens per rank, averaged over `routing_samples` routing draws seeded from the key (so the
// memo does not depend on call order); a rank's attention cost is re-computed when its set of
// requests changes or its total context has grown by more than `recompute_tolerance`.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/op_name_set.hpp"
#include "sim/serve/deployment.hpp"
#include "sim/serve/expert_skew.hpp"
#include "sim/serve/mechanism_terms.hpp"

namespace pdsim {

struct ForwardTerms {
  double attention_us = 0;    // MoE layers' attention blocks (slowest rank per layer)
  double moe_compute_us = 0;  // routed + shared experts (slowest rank per layer)
  double dispatch_us = 0;
  double combine_us = 0;
  double draft_us = 0;        // all draft-model forwards (their own a2a included)
  double other_us = 0;        // dense layers, embedding, LM head (slowest rank)
  double launch_us = 0;       // kernel launch or CUDA-graph replay overhead
  double scheduler_us = 0;
  double total_us() const;
  void add(const ForwardTerms& o);
  std::map<std::string, double> named() const;
};

struct RankState {
  std::vector<int> contexts;  // KV length of each running request
  uint64_t version = 0;       // changes whenever the set of requests changes
};

class DecodeCostModel {
 public:
  DecodeCostModel(const Deployment& d, uint64_t seed);
  // `mech` (optional) receives what each tail mechanism added (mechanism_terms.hpp).
  ForwardTerms iteration(const std::vector<RankState>& ranks, MechanismTerms* mech = nullptr);
  bool cuda_graph_used(int max_batch) const;
  const std::vector<int>& cuda_graph_bs() const { return graph_bs_; }
  Json stats() const;  // memo sizes, a2a term totals, ops costed outside the GPU profile's range

 private:
  struct MoeLayer {
    double dispatch_us = 0, combine_us = 0, experts_us = 0, experts_mean_us = 0;
    std::map<std::string, double> dispatch_terms, combine_terms;
    long uses = 0;  // MoE layers costed with this entry
  };
  struct RankCache {
    uint64_t version = ~0ULL;
    double sum_context = -1;
    double attn_verify = 0, other_verify = 0, draft_step = 0, draft_extend = 0;
  };
  MoeLayer& moe_layer(const std::vector<int>& tokens_per_rank);
  void refresh(size_t rank, const RankState& s);
  double cost_us(const StepCost& c);  // total, noting ops outside the profile's measured range

  const Deployment& d_;
  uint64_t seed_;
  std::vector<int> graph_bs_;
  double launch_graph_us_ = 0, launch_eager_us_ = 0;  // per target forward, computed once
  std::vector<RankCache> cache_;
  std::unordered_map<std::string, MoeLayer> memo_;
  std::string key_;  // moe_layer's lookup key, reused so a memo hit allocates nothing
  long phases_ = 0;
  OpNameSet out_of_range_ops_;
  std::unique_ptr<ExpertSkew> skew_;  // tail.expert_skew, when enabled
};

// SGLang's default CUDA-graph capture batch sizes (cuda_graph_runner), cut at max_bs.
std::vector<int> default_cuda_graph_bs(bool speculative, int max_bs);

}  // namespace pdsim

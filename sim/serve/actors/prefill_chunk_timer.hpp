#pragma once
// The prefill chunk timer: how long one chunk takes on one PP stage of a prefill instance (all
// GPUs of the stage are symmetric: CP round-robin gives each 1/cp of every segment's new tokens,
// EP spreads experts evenly under uniform routing). Stage time = compute + per layer (CP KV
// all-gather over NVLink) + per MoE layer (normal-mode EP dispatch + combine over NVLink) + the
// layout's collectives (TP all-reduce, or the reduce-scatter / all-gather around an all-to-all
// MoE; models/layer_comms.hpp, costed by collective_cost.hpp; without CP only, and split over PP
// stages by their share of the layers), all serial: DeepEP normal mode synchronises with the
// CPU, and SGLang 0.5 does not overlap TP collectives with compute, so nothing is assumed to
// overlap. Plus the serving stack's host work per chunk and stage (serving_profile.hpp).
#include <vector>

#include "models/op_name_set.hpp"
#include "sim/serve/cost/collective_cost.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct ChunkCost {
  double compute_us = 0, cp_exchange_us = 0, a2a_us = 0, collective_us = 0, host_us = 0;
  double total_us() const { return compute_us + cp_exchange_us + a2a_us + collective_us + host_us; }
};

class PrefillChunkTimer {
 public:
  explicit PrefillChunkTimer(const Deployment& d);
  // One chunk on `stage`; ops costed outside the GPU profile's measured range are noted.
  // `ranks` (parallel to `chunk`, optional): the DP-attention rank of each segment. The ranks
  // run one forward together (SGLang syncs them for the MoE), so attention, dense and shared-expert
  // work take the busiest rank's time and the routed experts all ranks' tokens; without `ranks`
  // the chunk is spread evenly over the ranks.
  ChunkCost time(int stage, const std::vector<PrefillSegment>& chunk,
                 const std::vector<int>& ranks = {});
  PrefillLayout layout(int stage) const;
  // Fraction of the model's layers held by `stage` (its share of every request's KV cache).
  double layer_share(int stage) const;
  const OpNameSet& out_of_range_ops() const { return out_of_range_; }
  Json collective_stats() const { return collectives_.stats(); }
  // Expected distinct EP ranks a token's top-k experts land on (uniform routing without
  // replacement, contiguous placement): R · (1 − C(E − E/R, k) / C(E, k)).
  static double expected_distinct_ranks(int experts, int ranks, int top_k);

 private:
  // The chunk's compute time; `rank_tokens` gets each DP-attention rank's new tokens.
  double compute_us(const std::vector<PrefillSegment>& chunk, const std::vector<int>& ranks,
                    const PrefillLayout& l, std::vector<double>& rank_tokens);

  const Deployment& d_;
  std::vector<int> first_layer_, num_layers_;
  OpNameSet out_of_range_;
  CollectiveCost collectives_;
};

}  // namespace pdsim

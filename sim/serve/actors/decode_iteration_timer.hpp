#pragma once
// The decode iteration timer: the whole rule for how long one iteration of a DP-attention + EP
// decode instance takes, returned as a breakdown the decode actor only sleeps for.
//
// The rule. An iteration makes the passes of DecodePasses (decode_passes.hpp). Every MoE layer
// of a forward is: per-rank attention (the slowest rank sets the pace) → dispatch (a barrier) →
// expert GEMMs on each rank (the slowest rank) → combine (a barrier); ranks without requests
// still join every all-to-all. A "rank" is an attention group: one GPU under DP attention, all
// tp GPUs (heads split) without it, its tokens scattered over the group's GPUs for the
// all-to-all. Without an all-to-all backend (moe_a2a_backend none) every GPU runs its experts
// on every token and no dispatch or combine is paid. The layout's collectives
// (models/layer_comms.hpp: TP all-reduces, DP gathers) are one more term of the target forward;
// draft forwards' collectives are not costed (an assumption; it matters only for speculative
// decoding without DP attention). Draft forwards are the MTP layer (attention + one MoE block with
// its own dispatch and combine): each draft step over 1 token per request, the draft-extend
// over the verify tokens. Launch: CUDA-graph replay when the largest rank batch is within the
// capture list, else eager launch (tail.cuda_graph_miss); draft forwards add launch cost in
// proportion to their layers. Plus `decode.scheduler_overhead_us`, plus the serving stack's host
// work per iteration and per graph replay (serving_profile.hpp): all of it without the overlap
// scheduler (SGLang 0.5 turns it off for EAGLE), else only what exceeds the GPU time.
// Rule terms of the tail (dp_imbalance, expert_imbalance, cuda_graph_miss) are recorded while
// composing; then every tail mechanism switched on (tail_mechanism.hpp) adds its delay, in name
// order.
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "sim/serve/cost/collective_cost.hpp"
#include "sim/serve/cost/decode_cost.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {

class PacketPhaseOracle;

struct IterationTiming {
  ForwardTerms terms;       // the actor sleeps terms.total_us()
  MechanismTerms mech;      // what each tail mechanism added
  bool cuda_graph = false;  // the largest rank batch was within the capture list
};

class DecodeIterationTimer {
 public:
  DecodeIterationTimer(const Deployment& d, uint64_t seed);
  ~DecodeIterationTimer();
  // One iteration of instance c.instance; `admitted` requests joined at its start; `rng` is the
  // instance's stream for tail draws.
  IterationTiming time(const IterationContext& c, int admitted, Rng& rng);
  const std::vector<int>& cuda_graph_bs() const { return graph_bs_; }
  Json stats() const;         // the cost model's memo and a2a term totals, the capture list
  Json packet_stats() const;  // the fidelity's all-to-all oracle; null without one
  // The earliest failure any mechanism predicted (none when none did).
  std::optional<PredictedFailure> failure() const;

 private:
  ForwardTerms compose(const std::vector<RankState>& ranks, MechanismTerms& m, bool& graph);
  // Tokens per EP rank entering the MoE, from each attention group's tokens.
  const std::vector<int>& moe_tokens(const std::vector<int>& group_tokens);
  // The layout's collectives for one target forward, memoised: each group's tokens, or with
  // `padded` > 0 a graph replay where every group runs that many.
  double collectives_us(const std::vector<int>& group_tokens, int padded);

  const Deployment& d_;
  DecodeCostModel cost_;
  CollectiveCost collectives_;
  std::map<std::vector<int>, double> collective_memo_;
  std::vector<int> collective_key_, moe_tokens_;
  bool has_collectives_ = false;  // the layout issues any (all-to-alls aside)
  std::vector<int> graph_bs_;
  double launch_graph_us_ = 0, launch_eager_us_ = 0;  // per target forward, computed once
  std::unique_ptr<PacketPhaseOracle> oracle_;
  std::vector<std::unique_ptr<TailMechanism>> mechanisms_;  // switched on, in name order
  MechanismId dp_imbalance_, expert_imbalance_, cuda_graph_miss_;
  bool slowest_rank_, eager_on_miss_;  // tail.dp_imbalance, tail.cuda_graph_miss
};

}  // namespace pdsim

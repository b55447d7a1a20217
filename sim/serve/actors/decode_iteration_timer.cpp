#include "sim/serve/actors/decode_iteration_timer.hpp"

#include <algorithm>

#include "models/cuda_graph_capture.hpp"
#include "sim/fabric/a2a_fit_evidence.hpp"
#include "sim/serve/cost/packet_phase_oracle.hpp"

namespace pdsim {

DecodeIterationTimer::DecodeIterationTimer(const Deployment& d, uint64_t seed)
    : d_(d),
      cost_(d, seed),
      collectives_(d.fabric, d.collective.get(), d.instance.gpus_per_node),
      oracle_(d.fidelity->a2a_oracle(d, seed)),
      dp_imbalance_(mechanism_id("dp_imbalance")),
      expert_imbalance_(mechanism_id("expert_imbalance")),
      cuda_graph_miss_(mechanism_id("cuda_graph_miss")),
      slowest_rank_(d.scenario.tail.get<bool>("dp_imbalance")),
      eager_on_miss_(d.scenario.tail.get<bool>("cuda_graph_miss")) {
  const auto& dc = d.scenario.decode;
  graph_bs_ = capture_bs_within_pool(
      dc.cuda_graph_bs.empty() ? default_cuda_graph_bs(d.passes.speculative, dc.cuda_graph_max_bs)
                               : dc.cuda_graph_bs,
      d.request_pool_per_rank, d.decode_layout.attn_dp > 1 ? d.decode_layout.attn_tp : 1);
  // DP attention with dp = tp and an all-to-all MoE issues no collective: skip the memo.
  const std::vector<int> one(static_cast<size_t>(d.decode_layout.attn_dp), 1);
  for (const auto& op : forward_comms(d.decode_layout, d.model, one, one, false, true).ops)
    if (op.op != "all_to_all" && op.ranks > 1) has_collectives_ = true;
  launch_graph_us_ = d.compute->decode_launch_overhead_us(true);
  launch_eager_us_ = d.compute->decode_launch_overhead_us(false);
  const MechanismEnv env{d, seed, oracle_.get()};
  for (const auto& e : TailMechanismRegistry::instance().entries())
    if (auto m = e.make(env)) mechanisms_.push_back(std::move(m));
}

DecodeIterationTimer::~DecodeIterationTimer() = default;

IterationTiming DecodeIterationTimer::time(const IterationContext& c, int admitted, Rng& rng) {
  IterationTiming out;
  out.mech.admitted = admitted;
  out.terms = compose(c.ranks, out.mech, out.cuda_graph);
  for (auto& m : mechanisms_) m->apply(c, out.terms, out.mech, rng);
  return out;
}

ForwardTerms DecodeIterationTimer::compose(const std::vector<RankState>& ranks,
                                           MechanismTerms& mech, bool& graph) {
  using MoeLayer = DecodeCostModel::MoeLayer;
  const DecodePasses& ps = d_.passes;
  const int q = ps.query_tokens;
  const int moe_layers = d_.model.num_moe_layers();
  std::vector<int> tokens_verify(ranks.size()), tokens_draft(ranks.size());
  double attn = 0, other = 0, draft_step = 0, draft_extend = 0;
  int max_batch = 0;
  for (const auto& r : ranks) max_batch = std::max(max_batch, static_cast<int>(r.contexts.size()));
  graph = !graph_bs_.empty() && max_batch <= graph_bs_.back();
  // A replay runs the smallest captured batch that holds the largest rank's (every DP rank the
  // same one: SGLang pads to the maximum over ranks). Padded rows go through attention and the
  // dense GEMMs and the DP gathers; top-k masks them out of the experts and the all-to-all.
  const int pad =
      graph && max_batch > 0 ? *std::lower_bound(graph_bs_.begin(), graph_bs_.end(), max_batch) : 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const DecodeCostModel::RankCosts& c = cost_.rank(r, ranks[r], pad);
    const int n = static_cast<int>(ranks[r].contexts.size());
    tokens_verify[r] = n * q;
    tokens_draft[r] = n;
    attn = std::max(attn, c.attn_verify);
    other = std::max(other, c.other_verify);
    draft_step = std::max(draft_step, c.draft_step);
    draft_extend = std::max(draft_extend, c.draft_extend);
  }
  // Means over all ranks: the same work spread evenly (tail.dp_imbalance off).
  double attn_m = 0, other_m = 0, step_m = 0, ext_m = 0;
  const double nr = std::max<double>(1.0, static_cast<double>(ranks.size()));
  for (const auto& c : cost_.rank_costs()) {
    attn_m += c.attn_verify / nr;
    other_m += c.other_verify / nr;
    step_m += c.draft_step / nr;
    ext_m += c.draft_extend / nr;
  }
  const int steps = ps.draft_steps;
  mech[dp_imbalance_] = slowest_rank_ ? moe_layers * (attn - attn_m) + (other - other_m) +
                                            steps * (draft_step - step_m) + (draft_extend - ext_m)
                                      : 0.0;
  if (!slowest_rank_) {
    attn = attn_m;
    other = other_m;
    draft_step = step_m;
    draft_extend = ext_m;
  }
  auto experts = [&](const MoeLayer& m) {
    return slowest_rank_ ? m.experts_us : m.experts_mean_us;
  };
  auto moe_total_of = [&](const MoeLayer& m) { return m.dispatch_us + experts(m) + m.combine_us; };
  ForwardTerms t;
  t.other_us = other;
  t.collective_us = collectives_us(tokens_verify, pad * q);
  const bool a2a = d_.decode_layout.moe_a2a;
  if (moe_layers > 0) {
    MoeLayer& v = cost_.moe_layer(moe_tokens(tokens_verify));
    t.attention_us = moe_layers * attn;
    t.dispatch_us = moe_layers * v.dispatch_us;
    t.combine_us = moe_layers * v.combine_us;
    t.moe_compute_us = moe_layers * experts(v);
    if (slowest_rank_) mech[expert_imbalance_] = moe_layers * (v.experts_us - v.experts_mean_us);
    v.uses += moe_layers;
    if (a2a) cost_.count_phases(2L * moe_layers);
  }
  if (ps.speculative) {
    // The draft (MTP) layer has one MoE block; its all-to-alls are part of the draft time.
    double moe_step = 0, moe_ext = 0;
    if (moe_layers > 0) {
      MoeLayer& step = cost_.moe_layer(moe_tokens(tokens_draft));
      MoeLayer& ext = cost_.moe_layer(moe_tokens(tokens_verify));
      moe_step = moe_total_of(step);
      moe_ext = moe_total_of(ext);
      step.uses += steps;
      ext.uses += 1;
      if (a2a) cost_.count_phases(2L * (steps + 1));
    }
    t.draft_us = steps * (draft_step + moe_step) + draft_extend + moe_ext;
  }
  // Draft forwards run one layer each: their launch overhead scales with their share of layers.
  const double layer_share = 1.0 + (ps.forwards() - 1) / static_cast<double>(d_.model.num_layers);
  const bool eager = !graph && eager_on_miss_;
  t.launch_us = (eager ? launch_eager_us_ : launch_graph_us_) * layer_share;
  mech[cuda_graph_miss_] = eager ? (launch_eager_us_ - launch_graph_us_) * layer_share : 0.0;
  t.scheduler_us = d_.scenario.decode.scheduler_overhead_us;
  // Host work of the serving stack: all of it without the overlap scheduler, else only what
  // exceeds the GPU time of the iteration it overlaps.
  const ServingProfile& sv = d_.serving;
  const double host =
      sv.decode.host_us_per_iteration + ps.graph_replays * sv.decode.host_us_per_graph_replay;
  t.host_us = sv.overlap_on(ps.speculative) ? std::max(0.0, host - t.total_us()) : host;
  return t;
}

const std::vector<int>& DecodeIterationTimer::moe_tokens(const std::vector<int>& groups) {
  const SglangParallel& L = d_.decode_layout;
  moe_tokens_.assign(static_cast<size_t>(d_.a2a.ep_ranks), 0);
  if (L.moe_a2a) {
    // SCATTERED: each attention TP group splits its tokens over its GPUs (the first take the
    // remainder); EP rank = attention group × attn_tp + position in the group.
    for (size_t g = 0; g < groups.size(); ++g)
      for (int i = 0; i < L.attn_tp; ++i)
        moe_tokens_[g * static_cast<size_t>(L.attn_tp) + static_cast<size_t>(i)] =
            groups[g] / L.attn_tp + (i < groups[g] % L.attn_tp ? 1 : 0);
  } else {
    // FULL: every rank holds every token; the routing sample needs only their total, spread.
    int total = 0;
    for (int g : groups) total += g;
    const int ranks = d_.a2a.ep_ranks;
    for (int i = 0; i < ranks; ++i)
      moe_tokens_[static_cast<size_t>(i)] = total / ranks + (i < total % ranks ? 1 : 0);
  }
  return moe_tokens_;
}

double DecodeIterationTimer::collectives_us(const std::vector<int>& tokens, int padded) {
  if (!has_collectives_) return 0;
  // A replay's key is its padded size alone (negative: every group holds it); else the tokens.
  if (padded > 0)
    collective_key_.assign(1, -padded);
  else
    collective_key_.assign(tokens.begin(), tokens.end());
  if (auto it = collective_memo_.find(collective_key_); it != collective_memo_.end())
    return it->second;
  const std::vector<int> groups = padded > 0 ? std::vector<int>(tokens.size(), padded) : tokens;
  const double t = collectives_.forward_us(
      forward_comms(d_.decode_layout, d_.model, groups, groups, false, padded > 0));
  collective_memo_.emplace(collective_key_, t);
  return t;
}

Json DecodeIterationTimer::stats() const {
  Json j = cost_.stats();
  j["collectives"] = collectives_.stats();
  if (d_.a2a_backend && d_.decode_layout.moe_a2a)
    j["a2a_profile"] = a2a_fit_evidence(d_.fabric, d_.a2a_backend->name());
  j["cuda_graph_bs"] = graph_bs_;
  return j;
}

std::optional<PredictedFailure> DecodeIterationTimer::failure() const {
  const PredictedFailure* first = nullptr;
  for (const auto& m : mechanisms_)
    if (const PredictedFailure* f = m->failure(); f && (!first || f->at_s < first->at_s)) first = f;
  if (!first) return std::nullopt;
  return *first;
}

Json DecodeIterationTimer::packet_stats() const {
  return oracle_ ? oracle_->stats() : Json(nullptr);
}

}  // namespace pdsim

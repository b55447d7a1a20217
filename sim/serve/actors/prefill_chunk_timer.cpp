#include "sim/serve/actors/prefill_chunk_timer.hpp"

#include <algorithm>
#include <string_view>

#include "sim/fabric/normal_rdma_a2a.hpp"
#include "sim/fabric/transfers.hpp"

namespace pdsim {

double PrefillChunkTimer::expected_distinct_ranks(int experts, int ranks, int top_k) {
  const int per_rank = experts / ranks;
  double miss = 1.0;  // P(no expert of a given rank among the top-k)
  for (int i = 0; i < top_k; ++i)
    miss *= static_cast<double>(experts - per_rank - i) / static_cast<double>(experts - i);
  return ranks * (1.0 - miss);
}

PrefillChunkTimer::PrefillChunkTimer(const Deployment& d)
    : d_(d), collectives_(d.fabric, d.collective.get(), d.instance.gpus_per_node) {
  // SGLang splits layers evenly over PP stages; the first stages take the remainder.
  const int pp = d.scenario.prefill.pp, L = d.model.num_layers;
  int first = 0;
  for (int s = 0; s < pp; ++s) {
    const int n = L / pp + (s < L % pp ? 1 : 0);
    first_layer_.push_back(first);
    num_layers_.push_back(n);
    first += n;
  }
}

PrefillLayout PrefillChunkTimer::layout(int stage) const {
  const auto& p = d_.scenario.prefill;
  PrefillLayout l;
  l.tp = p.tp;
  // DP attention spreads a chunk's requests over the attn_dp groups; the compute model's cp
  // splits tokens the same way (a balanced chunk: every group the same share), with attention
  // heads over tp / (cp · attn_dp). Only real CP exchanges KV (below).
  l.cp = p.cp * d_.prefill_layout.attn_dp;
  l.ep = d_.prefill_layout.moe_ep;
  l.moe_tp = d_.prefill_layout.moe_tp;
  l.moe_full = !d_.prefill_layout.moe_a2a;
  l.first_layer = first_layer_[static_cast<size_t>(stage)];
  l.num_layers = num_layers_[static_cast<size_t>(stage)];
  l.has_embedding = stage == 0;
  l.has_lm_head = stage == p.pp - 1;
  return l;
}

double PrefillChunkTimer::layer_share(int stage) const {
  return static_cast<double>(num_layers_[static_cast<size_t>(stage)]) / d_.model.num_layers;
}

double PrefillChunkTimer::compute_us(const std::vector<PrefillSegment>& chunk,
                                     const std::vector<int>& ranks, const PrefillLayout& l,
                                     std::vector<double>& rank_tokens) {
  const int groups = d_.prefill_layout.attn_dp;
  auto note = [&](const StepCost& sc) {
    for (const auto& op : sc.ops)
      if (op.out_of_range) out_of_range_.insert(op.name);
  };
  const StepCost all = d_.compute->prefill_chunk(chunk, l);
  note(all);
  rank_tokens.assign(static_cast<size_t>(groups), 0.0);
  if (ranks.empty() || groups == 1) {
    double n = 0;
    for (const auto& s : chunk) n += s.new_tokens;
    for (auto& t : rank_tokens) t = n / groups;
    return all.total_us();
  }
  // Routed experts see every rank's tokens (and without an all-to-all the shared experts too:
  // the TP group gathers the tokens before the MLP): from the whole chunk. Everything else runs
  // on each rank's own requests: the compute model's balanced split of a chunk in which every
  // rank holds this rank's segments, and the busiest rank sets the forward's time.
  const bool gathered = l.moe_full;
  auto routed = [gathered](const StepCost& sc) {
    double us = 0;
    for (const auto& op : sc.ops) {
      const std::string_view n(op.name);
      if (n.substr(0, 8) == "experts." || (gathered && n.substr(0, 7) == "shared."))
        us += op.time_us * op.count;
    }
    return us;
  };
  double busiest = 0;
  for (int g = 0; g < groups; ++g) {
    std::vector<PrefillSegment> mine;
    for (size_t i = 0; i < chunk.size(); ++i)
      if (ranks[i] == g) {
        mine.push_back(chunk[i]);
        rank_tokens[static_cast<size_t>(g)] += chunk[i].new_tokens;
      }
    if (mine.empty()) continue;
    std::vector<PrefillSegment> everywhere;
    for (int k = 0; k < groups; ++k) everywhere.insert(everywhere.end(), mine.begin(), mine.end());
    const StepCost own = d_.compute->prefill_chunk(everywhere, l);
    note(own);
    busiest = std::max(busiest, own.total_us() - routed(own));
  }
  return busiest + routed(all);
}

ChunkCost PrefillChunkTimer::time(int stage, const std::vector<PrefillSegment>& chunk,
                                  const std::vector<int>& ranks) {
  const PrefillLayout l = layout(stage);
  ChunkCost c;
  std::vector<double> rank_tokens;
  c.compute_us = compute_us(chunk, ranks, l, rank_tokens);
  double new_tokens = 0;
  for (const auto& s : chunk) new_tokens += s.new_tokens;
  const double busiest_tokens = *std::max_element(rank_tokens.begin(), rank_tokens.end());
  const int cp = d_.scenario.prefill.cp;
  const double tokens_per_gpu = new_tokens / cp;
  if (cp > 1) {
    const double kv_layer_bytes = d_.kv_bytes_per_token / d_.model.num_layers;
    c.cp_exchange_us =
        l.num_layers * nvlink_allgather_us(d_.fabric, tokens_per_gpu * kv_layer_bytes, cp);
  }
  int moe_layers = 0;
  for (int layer = l.first_layer; layer < l.first_layer + l.num_layers; ++layer)
    if (d_.model.is_moe() && layer >= d_.model.first_k_dense) ++moe_layers;
  if (moe_layers > 0 && l.ep > 1 && !l.moe_full) {
    A2AConfig a = d_.a2a;
    a.hidden = d_.model.hidden;
    // The MLP's tokens are scattered over the tp GPUs (cp × attention TP), as the compute model
    // splits them; with DP attention the busiest rank's GPUs send the most.
    const double moe_tokens = busiest_tokens * d_.prefill_layout.attn_dp / l.tp;
    double dispatch = 0, combine = 0;
    if (l.ep > a.gpus_per_node && d_.prefill_normal_rdma) {  // checked by the deployment
      a.ep_ranks = l.ep;
      a.num_experts = d_.model.n_routed_experts;
      a.top_k = d_.model.top_k;
      const NormalRdmaRates& r = *d_.prefill_normal_rdma;
      dispatch = normal_rdma_a2a_us(
          r, normal_rdma_bytes_per_rank(a, moe_tokens, A2APhase::dispatch), A2APhase::dispatch);
      combine = normal_rdma_a2a_us(r, normal_rdma_bytes_per_rank(a, moe_tokens, A2APhase::combine),
                                   A2APhase::combine);
    } else {
      const double copies =
          moe_tokens * expected_distinct_ranks(d_.model.n_routed_experts, l.ep, d_.model.top_k);
      dispatch = nvlink_normal_a2a_us(d_.fabric, copies * a2a_message_bytes(a, A2APhase::dispatch),
                                      l.ep, A2APhase::dispatch);
      combine = nvlink_normal_a2a_us(d_.fabric, copies * a2a_message_bytes(a, A2APhase::combine),
                                     l.ep, A2APhase::combine);
    }
    c.a2a_us = moe_layers * (dispatch + combine);
  }
  if (cp == 1) {
    // Each DP group's tokens and requests: its own with the segments' ranks, else an even share
    // (the first groups take the remainder); one group without DP attention.
    const int groups = d_.prefill_layout.attn_dp;
    std::vector<int> tokens, lm;
    for (int g = 0; g < groups; ++g) {
      auto share = [&](int n) { return n / groups + (g < n % groups ? 1 : 0); };
      if (ranks.empty()) {
        tokens.push_back(share(static_cast<int>(new_tokens)));
        lm.push_back(share(static_cast<int>(chunk.size())));
      } else {
        tokens.push_back(static_cast<int>(rank_tokens[static_cast<size_t>(g)]));
        lm.push_back(static_cast<int>(std::count(ranks.begin(), ranks.end(), g)));
      }
    }
    const ForwardComms f = forward_comms(d_.prefill_layout, d_.model, tokens, lm, true, false);
    c.collective_us = collectives_.forward_us(f) * layer_share(stage);
  }
  c.host_us = d_.serving.prefill.host_us_per_chunk;
  return c;
}

}  // namespace pdsim

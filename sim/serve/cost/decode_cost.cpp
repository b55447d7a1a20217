#include "sim/serve/cost/decode_cost.hpp"

#include <algorithm>
#include <numeric>
#include <span>

#include "sim/core/stable_hash.hpp"

namespace pdsim {

DecodeCostModel::DecodeCostModel(const Deployment& d, uint64_t seed)
    : d_(d),
      seed_(seed),
      cache_(static_cast<size_t>(d.decode_ranks)),
      costs_(static_cast<size_t>(d.decode_ranks)) {
  const auto& sk = d.scenario.tail.get<ExpertSkewConfig>("expert_skew");
  if (sk.enabled && d.model.is_moe())
    skew_ = std::make_unique<ExpertSkew>(d.a2a, sk.zipf_s, sk.eplb, Rng(seed).fork(77).next_u64());
}

double DecodeCostModel::cost_us(const StepCost& c) {
  for (const auto& op : c.ops)
    if (op.out_of_range) out_of_range_ops_.insert(op.name);
  return c.total_us();
}

size_t DecodeCostModel::ExpertsKeyHash::operator()(const ExpertsKey& k) const {
  return std::hash<double>()(k.load.tokens) ^ (std::hash<double>()(k.load.active) * 31) ^
         (std::hash<int>()(k.shared_tokens) * 1000003);
}

double DecodeCostModel::experts_us(const ExpertsLoad& load, int shared_tokens) {
  const ExpertsKey key{load, shared_tokens};
  if (auto it = experts_memo_.find(key); it != experts_memo_.end()) return it->second;
  // Out-of-range ops were noted when the entry was made: the same load gives the same ops.
  const SglangParallel& L = d_.decode_layout;
  const StepCost c =
      L.moe_a2a ? d_.compute->decode_experts_layer(load, shared_tokens)
                : d_.compute->decode_experts_layer(load, shared_tokens, L.moe_tp, L.flags.tp);
  return experts_memo_.emplace(key, cost_us(c)).first->second;
}

const DecodeCostModel::RankCosts& DecodeCostModel::rank(size_t r, const RankState& s, int pad_to) {
  RankCache& c = cache_[r];
  RankCosts& k = costs_[r];
  const double sum = std::accumulate(s.contexts.begin(), s.contexts.end(), 0.0);
  const double tol = d_.scenario.decode.recompute_tolerance;
  if (c.version == s.version && c.pad_to == pad_to && sum <= c.sum_context * (1.0 + tol)) return k;
  c.version = s.version;
  c.sum_context = sum;
  c.pad_to = pad_to;
  const int n = static_cast<int>(s.contexts.size());
  if (n == 0 && pad_to == 0) {  // idle rank: no attention work, it only joins the all-to-alls
    k = RankCosts{};
    return k;
  }
  const ComputeModel& cm = *d_.compute;
  DecodeRankBatch b{s.contexts, d_.passes.query_tokens};
  // A CUDA graph runs its captured batch: the padding requests have a context of 1 (SGLang's
  // seq_len_fill_value) but take their rows of every GEMM.
  if (pad_to > n) b.context_tokens.resize(static_cast<size_t>(pad_to), 1);
  k.attn_verify = d_.model.is_moe() ? cost_us(cm.decode_attention_layer(b)) : 0.0;
  k.other_verify = cost_us(cm.decode_non_moe(b));
  if (d_.passes.speculative) {
    DecodeRankBatch one{b.context_tokens, 1};
    k.draft_step = cost_us(cm.decode_draft_step(one));
    k.draft_extend = cost_us(cm.decode_draft_step(b));
  }
  return k;
}

DecodeCostModel::MoeLayer& DecodeCostModel::moe_layer(const std::vector<int>& tokens) {
  key_.assign(reinterpret_cast<const char*>(tokens.data()), tokens.size() * sizeof(int));
  auto it = memo_.find(key_);
  if (it != memo_.end()) return it->second;
  Rng rng = Rng(seed_).fork(fnv1a_64(key_));  // the sample stream depends on the key only
  MoeLayer m;
  const int samples = d_.scenario.fabric.routing_samples;
  const int epr = d_.a2a.experts_per_rank();
  const SglangParallel& L = d_.decode_layout;
  const int all_tokens = std::accumulate(tokens.begin(), tokens.end(), 0);
  for (int s = 0; s < samples; ++s) {
    Routing r = skew_ ? skew_->sample(d_.a2a, tokens, rng) : sample_routing(d_.a2a, tokens, rng);
    double experts = 0, experts_sum = 0;
    for (int rank = 0; rank < d_.a2a.ep_ranks; ++rank) {
      const ExpertsLoad load =
          experts_load(std::span<const int>(r.tokens_per_expert)
                           .subspan(static_cast<size_t>(rank * epr), static_cast<size_t>(epr)));
      // DeepEP: the shared expert on the rank's own tokens; without an all-to-all every rank
      // holds every token and the shared expert is split over the TP group.
      const double e = experts_us(load, L.moe_a2a ? tokens[static_cast<size_t>(rank)] : all_tokens);
      experts = std::max(experts, e);
      experts_sum += e;
    }
    m.experts_mean_us += experts_sum / d_.a2a.ep_ranks / samples;
    m.experts_us += experts / samples;
    if (!L.moe_a2a) continue;  // the MoE output's all-reduce is a collective (collective_cost)
    A2APhaseTime disp = d_.a2a_backend->phase(d_.a2a, r, A2APhase::dispatch);
    A2APhaseTime comb = d_.a2a_backend->phase(d_.a2a, r, A2APhase::combine);
    m.dispatch_us += disp.total_us / samples;
    m.combine_us += comb.total_us / samples;
    for (const auto& [k, v] : disp.terms_us) m.dispatch_terms[k] += v / samples;
    for (const auto& [k, v] : comb.terms_us) m.combine_terms[k] += v / samples;
  }
  return memo_.emplace(key_, std::move(m)).first->second;
}

Json DecodeCostModel::stats() const {
  // Σ over every all-to-all phase simulated of the slowest rank's named terms (draft included).
  // Entries are visited in key order so the floating-point sums do not depend on hashing.
  std::map<std::string, const MoeLayer*> ordered;
  for (const auto& [key, layer] : memo_) ordered.emplace(key, &layer);
  std::map<std::string, double> sum;
  for (const auto& [key, layer] : ordered) {
    const double uses = static_cast<double>(layer->uses);
    for (const auto& [k, v] : layer->dispatch_terms) sum["dispatch." + k] += uses * v;
    for (const auto& [k, v] : layer->combine_terms) sum["combine." + k] += uses * v;
  }
  Json terms = Json::object();
  for (const auto& [k, v] : sum) terms[k] = v;
  return Json{{"moe_memo_entries", memo_.size()},
              {"a2a_phases", phases_},
              {"ops_outside_gpu_profile_range", out_of_range_ops_.names()},
              {"a2a_terms_total_us", terms}};
}

}  // namespace pdsim

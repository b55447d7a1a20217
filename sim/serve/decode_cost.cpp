#include "sim/serve/decode_cost.hpp"

#include <algorithm>
#include <numeric>

namespace pdsim {

double ForwardTerms::total_us() const {
  return attention_us + moe_compute_us + dispatch_us + combine_us + draft_us + other_us + launch_us +
         scheduler_us;
}

void ForwardTerms::add(const ForwardTerms& o) {
  attention_us += o.attention_us;
  moe_compute_us += o.moe_compute_us;
  dispatch_us += o.dispatch_us;
  combine_us += o.combine_us;
  draft_us += o.draft_us;
  other_us += o.other_us;
  launch_us += o.launch_us;
  scheduler_us += o.scheduler_us;
}

std::map<std::string, double> ForwardTerms::named() const {
  return {{"attention", attention_us}, {"moe_compute", moe_compute_us}, {"dispatch", dispatch_us},
          {"combine", combine_us},     {"draft", draft_us},             {"other", other_us},
          {"launch", launch_us},       {"scheduler", scheduler_us}};
}

std::vector<int> default_cuda_graph_bs(bool speculative, int max_bs) {
  // SGLang cuda_graph_runner.get_batch_sizes_to_capture: speculative decoding captures
  // 1..8, then every 2 up to 32, then every 16; otherwise 1, 2, 4, 8, then every 8.
  std::vector<int> all;
  if (speculative) {
    for (int b = 1; b <= 8; ++b) all.push_back(b);
    for (int b = 10; b <= 32; b += 2) all.push_back(b);
    for (int b = 40; b <= 160; b += 16) all.push_back(b);
  } else {
    all = {1, 2, 4, 8};
    for (int b = 16; b <= 160; b += 8) all.push_back(b);
  }
  std::vector<int> out;
  for (int b : all)
    if (b <= max_bs) out.push_back(b);
  return out;
}

DecodeCostModel::DecodeCostModel(const Deployment& d, uint64_t seed)
    : d_(d), seed_(seed), cache_(static_cast<size_t>(d.decode_ranks)) {
  const auto& dc = d.scenario.decode;
  graph_bs_ = dc.cuda_graph_bs.empty() ? default_cuda_graph_bs(dc.speculative.enabled(), dc.cuda_graph_max_bs)
                                       : dc.cuda_graph_bs;
  launch_graph_us_ = d.compute->decode_launch_overhead_us(true);
  launch_eager_us_ = d.compute->decode_launch_overhead_us(false);
  const auto& sk = d.scenario.tail.expert_skew;
  if (sk.enabled && d.model.is_moe()) skew_ = std::make_unique<ExpertSkew>(d.a2a, sk.zipf_s, sk.eplb, Rng(seed).fork(77).next_u64());
}

bool DecodeCostModel::cuda_graph_used(int max_batch) const {
  return !graph_bs_.empty() && max_batch <= graph_bs_.back();
}

double DecodeCostModel::cost_us(const StepCost& c) {
  for (const auto& op : c.ops)
    if (op.out_of_range) out_of_range_ops_.insert(op.name);
  return c.total_us();
}

void DecodeCostModel::refresh(size_t rank, const RankState& s) {
  RankCache& c = cache_[rank];
  const double sum = std::accumulate(s.contexts.begin(), s.contexts.end(), 0.0);
  const double tol = d_.scenario.decode.recompute_tolerance;
  if (c.version == s.version && sum <= c.sum_context * (1.0 + tol)) return;
  c.version = s.version;
  c.sum_context = sum;
  if (s.contexts.empty()) {  // idle rank: no attention work, it only joins the all-to-alls
    c.attn_verify = c.other_verify = c.draft_step = c.draft_extend = 0;
    return;
  }
  const ComputeModel& cm = *d_.compute;
  DecodeRankBatch b{s.contexts, d_.query_tokens_per_request()};
  c.attn_verify = d_.model.is_moe() ? cost_us(cm.decode_attention_layer(b)) : 0.0;
  c.other_verify = cost_us(cm.decode_non_moe(b));
  if (d_.scenario.decode.speculative.enabled()) {
    DecodeRankBatch one{s.contexts, 1};
    c.draft_step = cost_us(cm.decode_draft_step(one));
    c.draft_extend = cost_us(cm.decode_draft_step(b));
  }
}

DecodeCostModel::MoeLayer& DecodeCostModel::moe_layer(const std::vector<int>& tokens) {
  key_.assign(reinterpret_cast<const char*>(tokens.data()), tokens.size() * sizeof(int));
  auto it = memo_.find(key_);
  if (it != memo_.end()) return it->second;
  uint64_t h = 1469598103934665603ULL;  // FNV-1a of the key: the sample stream depends on it only
  for (unsigned char ch : key_) h = (h ^ ch) * 1099511628211ULL;
  Rng rng = Rng(seed_).fork(h);
  MoeLayer m;
  const int samples = d_.scenario.fabric.routing_samples;
  const int epr = d_.a2a.experts_per_rank();
  std::vector<int> local(static_cast<size_t>(epr));
  for (int s = 0; s < samples; ++s) {
    Routing r = skew_ ? skew_->sample(d_.a2a, tokens, rng) : sample_routing(d_.a2a, tokens, rng);
    A2APhaseTime disp = d_.a2a_backend->phase(d_.a2a, r, A2APhase::dispatch);
    A2APhaseTime comb = d_.a2a_backend->phase(d_.a2a, r, A2APhase::combine);
    double experts = 0, experts_sum = 0;
    for (int rank = 0; rank < d_.a2a.ep_ranks; ++rank) {
      std::copy_n(r.tokens_per_expert.begin() + rank * epr, epr, local.begin());
      const double e = cost_us(d_.compute->decode_experts_layer(local, tokens[static_cast<size_t>(rank)]));
      experts = std::max(experts, e);
      experts_sum += e;
    }
    m.experts_mean_us += experts_sum / d_.a2a.ep_ranks / samples;
    m.dispatch_us += disp.total_us / samples;
    m.combine_us += comb.total_us / samples;
    m.experts_us += experts / samples;
    for (const auto& [k, v] : disp.terms_us) m.dispatch_terms[k] += v / samples;
    for (const auto& [k, v] : comb.terms_us) m.combine_terms[k] += v / samples;
  }
  return memo_.emplace(key_, std::move(m)).first->second;
}

ForwardTerms DecodeCostModel::iteration(const std::vector<RankState>& ranks, MechanismTerms* mech) {
  const auto& sp = d_.scenario.decode.speculative;
  const int q = d_.query_tokens_per_request();
  const int moe_layers = d_.model.num_moe_layers();
  std::vector<int> tokens_verify(ranks.size()), tokens_draft(ranks.size());
  double attn = 0, other = 0, draft_step = 0, draft_extend = 0;
  int max_batch = 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    refresh(r, ranks[r]);
    const int n = static_cast<int>(ranks[r].contexts.size());
    tokens_verify[r] = n * q;
    tokens_draft[r] = n;
    max_batch = std::max(max_batch, n);
    attn = std::max(attn, cache_[r].attn_verify);
    other = std::max(other, cache_[r].other_verify);
    draft_step = std::max(draft_step, cache_[r].draft_step);
    draft_extend = std::max(draft_extend, cache_[r].draft_extend);
  }
  const auto& tail = d_.scenario.tail;
  // Means over all ranks: the same work spread evenly (tail.dp_imbalance off).
  double attn_m = 0, other_m = 0, step_m = 0, ext_m = 0;
  const double nr = std::max<double>(1.0, static_cast<double>(ranks.size()));
  for (const auto& c : cache_) {
    attn_m += c.attn_verify / nr;
    other_m += c.other_verify / nr;
    step_m += c.draft_step / nr;
    ext_m += c.draft_extend / nr;
  }
  const int steps = sp.enabled() ? sp.num_steps : 0;
  if (mech)
    mech->dp_imbalance_us = tail.dp_imbalance ? moe_layers * (attn - attn_m) + (other - other_m) +
                                                    steps * (draft_step - step_m) + (draft_extend - ext_m)
                                              : 0.0;
  if (!tail.dp_imbalance) {
    attn = attn_m;
    other = other_m;
    draft_step = step_m;
    draft_extend = ext_m;
  }
  auto experts = [&](const MoeLayer& m) { return tail.dp_imbalance ? m.experts_us : m.experts_mean_us; };
  auto moe_total_of = [&](const MoeLayer& m) { return m.dispatch_us + experts(m) + m.combine_us; };
  ForwardTerms t;
  t.other_us = other;
  if (moe_layers > 0) {
    MoeLayer& v = moe_layer(tokens_verify);
    t.attention_us = moe_layers * attn;
    t.dispatch_us = moe_layers * v.dispatch_us;
    t.combine_us = moe_layers * v.combine_us;
    t.moe_compute_us = moe_layers * experts(v);
    if (mech && tail.dp_imbalance) mech->expert_imbalance_us = moe_layers * (v.experts_us - v.experts_mean_us);
    v.uses += moe_layers;
    phases_ += 2L * moe_layers;
  }
  int forwards = 1;
  if (sp.enabled()) {
    // The draft (MTP) layer has one MoE block; its all-to-alls are part of the draft time.
    double moe_step = 0, moe_ext = 0;
    if (moe_layers > 0) {
      MoeLayer& step = moe_layer(tokens_draft);
      MoeLayer& ext = moe_layer(tokens_verify);
      moe_step = moe_total_of(step);
      moe_ext = moe_total_of(ext);
      step.uses += sp.num_steps;
      ext.uses += 1;
      phases_ += 2L * (sp.num_steps + 1);
    }
    t.draft_us = sp.num_steps * (draft_step + moe_step) + draft_extend + moe_ext;
    forwards += sp.num_steps + 1;
  }
  // Draft forwards run one layer each: their launch overhead scales with their share of layers.
  const double layer_share = 1.0 + (forwards - 1) / static_cast<double>(d_.model.num_layers);
  const bool eager = !cuda_graph_used(max_batch) && tail.cuda_graph_miss;
  t.launch_us = (eager ? launch_eager_us_ : launch_graph_us_) * layer_share;
  if (mech) mech->cuda_graph_miss_us = eager ? (launch_eager_us_ - launch_graph_us_) * layer_share : 0.0;
  t.scheduler_us = d_.scenario.decode.scheduler_overhead_us;
  return t;
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
  return Json{{"moe_memo_entries", memo_.size()}, {"a2a_phases", phases_},
              {"ops_outside_gpu_profile_range", out_of_range_ops_.names()},
              {"a2a_terms_total_us", terms}, {"cuda_graph_bs", graph_bs_}};
}

}  // namespace pdsim

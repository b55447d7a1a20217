#include "sim/serve/cost/packet_phase_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "sim/core/stable_hash.hpp"
#include "sim/packet/network.hpp"
#include "sim/packet/workload.hpp"
#include "sim/serve/cost/cluster_fabric.hpp"
#include "sim/serve/cost/packet_serve_a2a.hpp"
#include "sim/serve/cost/packet_serve_background.hpp"

namespace pdsim {
namespace {

// Sampling-method constant (not a physical parameter): the a2a starts after the background has
// filled the paths for a few base RTTs.
constexpr double kWarmupUs = 50;

// The grid point nearest to `mean` in ratio (1,2,3,4,6,8,12,16,…: steps ×1.33 / ×1.5).
int tokens_bucket(double mean) {
  int lo = 1, hi = 1;
  while (hi < mean) {
    lo = hi;
    hi = (hi < 3) ? hi + 1 : (hi % 3 == 0 ? hi / 3 * 4 : hi / 2 * 3);
  }
  return mean * mean >= static_cast<double>(lo) * hi ? hi : lo;
}

// One packet run of a layer's dispatch and combine (the a2a is the first workload).
LayerUs run_layer(const packet::ExperimentConfig& cfg) {
  packet::Network net(cfg);
  auto workloads = packet::make_workloads(net);
  for (auto& w : workloads) w->start();
  net.run();
  const std::vector<double>& us = workloads.front()->phase_us();
  if (us.size() != 2)
    throw std::logic_error("packet fidelity: the all-to-all finished " + std::to_string(us.size()) +
                           " of 2 phases within the time limit");
  return LayerUs{us[0], us[1]};
}

}  // namespace

PacketPhaseOracle::PacketPhaseOracle(const Deployment& d, uint64_t seed)
    : d_(d), seed_(seed), samples_(d.scenario.fabric.packet_samples) {}

LayerQuery PacketPhaseOracle::quantise(const LayerQuery& q) const {
  LayerQuery out;
  out.first_node = q.first_node;
  // Per node: its ranks' mean tokens, rounded up to the grid (what enters and leaves each
  // node's NICs is what contends with the background there).
  const size_t gpn = static_cast<size_t>(d_.instance.gpus_per_node);
  out.tokens_per_rank.resize(q.tokens_per_rank.size());
  for (size_t first = 0; first < q.tokens_per_rank.size(); first += gpn) {
    const size_t last = std::min(first + gpn, q.tokens_per_rank.size());
    const double sum = std::accumulate(q.tokens_per_rank.begin() + static_cast<long>(first),
                                       q.tokens_per_rank.begin() + static_cast<long>(last), 0.0);
    const int b = sum > 0 ? tokens_bucket(sum / static_cast<double>(last - first)) : 0;
    std::fill(out.tokens_per_rank.begin() + static_cast<long>(first),
              out.tokens_per_rank.begin() + static_cast<long>(last), b);
  }
  std::map<std::tuple<bool, int, int>, double> merged;
  for (const auto& f : q.flows) merged[{f.kv, f.src_node, f.dst_node}] += f.rate_gbps;
  for (const auto& [k, rate] : merged) {
    if (rate <= 0) continue;
    BackgroundFlow f;
    std::tie(f.kv, f.src_node, f.dst_node) = k;
    f.rate_gbps = std::pow(2.0, std::round(2.0 * std::log2(rate)) / 2.0);
    out.flows.push_back(f);
  }
  return out;
}

std::string PacketPhaseOracle::key(const LayerQuery& q) {
  std::string k = std::to_string(q.first_node) + "/t";
  for (size_t i = 0; i < q.tokens_per_rank.size(); ++i)  // ranks of a node share a value: runs
    if (i == 0 || q.tokens_per_rank[i] != q.tokens_per_rank[i - 1])
      k += std::to_string(q.tokens_per_rank[i]) + ",";
  for (const auto& f : q.flows)
    k += std::string("/") + (f.kv ? "kv" : "pp") + std::to_string(f.src_node) + ">" +
         std::to_string(f.dst_node) + "@" +
         std::to_string(static_cast<int>(std::lround(2.0 * std::log2(f.rate_gbps))));
  return k;
}

uint64_t PacketPhaseOracle::sample_seed(const LayerQuery& quantised) const {
  LayerQuery idle = quantised;
  idle.flows.clear();
  return Rng(seed_).fork(fnv1a_64(key(idle))).next_u64();
}

packet::ExperimentConfig PacketPhaseOracle::layer_experiment(const LayerQuery& q, uint64_t seed,
                                                             bool loaded) const {
  packet::ExperimentConfig cfg = cluster_experiment(d_, seed, "packet fidelity");
  packet::ServeA2AConfig a2a;
  a2a.first_node = q.first_node;
  a2a.tokens_per_rank = q.tokens_per_rank;
  a2a.num_experts = d_.a2a.num_experts;
  a2a.top_k = d_.a2a.top_k;
  a2a.hidden = d_.a2a.hidden;
  a2a.phase = A2APhase::dispatch;
  a2a.then_combine = true;
  a2a.first_nic = 0;
  a2a.nics = d_.a2a_nics;
  a2a.stop_when_done = true;
  packet::add_serve_a2a(cfg, "a2a", us_to_ps(kWarmupUs), std::move(a2a));
  if (!loaded) return cfg;
  for (size_t i = 0; i < q.flows.size(); ++i) {
    const auto& f = q.flows[i];
    packet::ServeBackgroundConfig bg;
    bg.src_node = f.src_node;
    bg.dst_node = f.dst_node;
    // Long enough to outlast the measurement; the run stops when the a2a phase ends.
    bg.bytes = static_cast<int64_t>(std::max(1e6, f.rate_gbps / 8.0 * 1e9 * 0.01));
    bg.rate_gbps = f.rate_gbps;
    bg.block_bytes = static_cast<int64_t>(std::max(4096.0, d_.kv_block_bytes));
    bg.first_nic = f.kv ? d_.scenario.prefill.kv_first_nic : 0;
    bg.nics = f.kv ? d_.kv_nics : d_.instance.nics_per_node;
    packet::add_serve_background(cfg, "bg" + std::to_string(i), 0, std::move(bg));
  }
  return cfg;
}

PacketPhaseOracle::Paired PacketPhaseOracle::simulate(const LayerQuery& q, int samples,
                                                      uint64_t seed,
                                                      const std::vector<LayerUs>* idle) const {
  // Each sample is its own packet run with its own seed: its own routing draw and its own ECMP
  // hash / SRD path realisation for every connection, a2a and background alike. The idle run
  // uses the same seed, so the pair differs only by the background.
  Paired out;
  const Rng base(seed);
  for (int i = 0; i < samples; ++i) {
    const uint64_t sample = base.fork(static_cast<uint64_t>(i)).next_u64();
    const LayerUs idle_us =
        idle ? idle->at(static_cast<size_t>(i)) : run_layer(layer_experiment(q, sample, false));
    out.idle.push_back(idle_us);
    out.loaded.push_back(q.flows.empty() ? idle_us : run_layer(layer_experiment(q, sample, true)));
  }
  return out;
}

const std::vector<LayerUs>& PacketPhaseOracle::excess_us(const LayerQuery& raw) {
  const LayerQuery q = quantise(raw);
  const std::string k = key(q);
  auto it = memo_.find(k);
  if (it != memo_.end()) return it->second;
  std::vector<LayerUs> ex(static_cast<size_t>(samples_));
  if (!q.flows.empty()) {
    // The idle runs depend on the idle key only (same seed, no background): shared by every
    // background seen with the same node and tokens.
    LayerQuery idle_q = q;
    idle_q.flows.clear();
    const std::string idle_key = key(idle_q);
    const uint64_t seed = sample_seed(q);
    auto idle = idle_memo_.find(idle_key);
    if (idle == idle_memo_.end()) {
      idle = idle_memo_.emplace(idle_key, simulate(idle_q, samples_, seed).idle).first;
      packet_runs_ += samples_;
    }
    const Paired p = simulate(q, samples_, seed, &idle->second);
    packet_runs_ += samples_;
    for (size_t i = 0; i < ex.size(); ++i)
      ex[i] = LayerUs{p.loaded[i].dispatch_us - p.idle[i].dispatch_us,
                      p.loaded[i].combine_us - p.idle[i].combine_us};
  }
  return memo_.emplace(k, std::move(ex)).first->second;
}

A2AExcess PacketPhaseOracle::iteration_excess(const std::vector<int>& verify_tokens,
                                              const std::vector<int>& draft_tokens,
                                              int verify_layers, int draft_steps, int first_node,
                                              const std::vector<BackgroundFlow>& flows,
                                              double iteration_us, Rng& rng) {
  A2AExcess out;
  if (flows.empty()) return out;
  const bool draft = draft_steps > 0;
  const int layers = verify_layers + (draft ? 1 + draft_steps : 0);
  std::vector<double> active_us;  // how long each flow lasts at its rate
  for (const auto& f : flows)
    active_us.push_back(f.rate_gbps > 0 ? f.remaining_bytes * 8.0 / (f.rate_gbps * 1e3) : 0);
  LayerQuery q;
  q.first_node = first_node;
  for (int j = 0; j < layers; ++j) {
    const double at_us = (j + 0.5) / layers * iteration_us;
    q.flows.clear();
    for (size_t i = 0; i < flows.size(); ++i)
      if (active_us[i] > at_us) q.flows.push_back(flows[i]);
    if (q.flows.empty()) continue;
    q.tokens_per_rank = (j < verify_layers + (draft ? 1 : 0)) ? verify_tokens : draft_tokens;
    ++out.loaded_phases;
    // One sample for the layer: its dispatch and combine met the same background.
    const std::vector<LayerUs>& ex = excess_us(q);
    const LayerUs& v =
        ex[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(ex.size()) - 1))];
    out.dispatch_us += v.dispatch_us;
    out.combine_us += v.combine_us;
    ++draws_;
  }
  return out;
}

Json PacketPhaseOracle::stats() const {
  return Json{{"memo_entries", memo_.size()},
              {"packet_runs", packet_runs_},
              {"draws", draws_},
              {"samples_per_entry", samples_}};
}

}  // namespace pdsim

#pragma once
// Packet fidelity of the decode all-to-all: how much longer one MoE layer's dispatch and combine
// take because of the background on the decode nodes' NICs and paths (KV transfers and PP
// activation sends in flight), from the packet engine (sim/packet).
//
// A query is the EP ranks' first cluster node, the tokens per rank and the flows in flight
// (source, destination, KV or PP, rate achieved in the serving simulation). The packet engine
// runs `fabric.packet_samples` layers (fresh routing each: a dispatch, then its combine on the
// reversed routing as soon as it ends, in one run on one background) on the cluster fabric
// (cluster_fabric.hpp) with the flows paced at their rates, and the same layers (same seed, so
// the same routing draws) on an idle fabric; the paired differences are the distribution of the
// background's extra latency per phase. A layer's dispatch and combine are one sample: they meet
// the same background state and the same path realisation, so their excesses are drawn together.
// The combine follows its dispatch with no gap (the expert GEMM between them is not simulated):
// the background is paced at a constant rate, so the state it meets is the same in distribution.
// The analytic backend keeps the phase's base time (it carries the calibrated CPU-proxy / IBGDA
// issue costs, which the packet run does not: it issues from the GPU), so an idle background
// reproduces analytic fidelity exactly.
//
// Memo key (quantised query; documented in sim/serve/README.md):
//   first node of the EP ranks,
//   tokens: per node, every rank gets its node's mean tokens per rank, rounded to the nearest
//           (in ratio) point of the grid 1,2,3,4,6,8,12,… (×1.5 / ×1.33 steps); a node whose
//           ranks have no tokens stays at 0,
//   flows:  merged per (KV|PP, source, destination) with rates summed, each rate rounded to the
//           nearest power of √2 Gb/s; remaining bytes are not in the key: they decide, phase by
//           phase within an iteration, whether the flow is still active (iteration_excess).
// Each sample is its own short packet run (own routing draw, own ECMP / SRD path realisation),
// seeded from (run seed, first node, tokens buckets) only, so memo contents do not depend
// on call order and the run is deterministic.
#include <map>
#include <string>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/packet/experiment.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct BackgroundFlow {
  int src_node = 0, dst_node = 0;  // cluster nodes (cluster_fabric.hpp numbering)
  bool kv = true;                  // KV transfer (on the KV rails) or PP send (all NICs)
  double rate_gbps = 0;            // what it achieves in the serving simulation
  double remaining_bytes = 0;
};

struct LayerQuery {
  int first_node = 0;  // cluster node of EP rank 0
  std::vector<int> tokens_per_rank;
  std::vector<BackgroundFlow> flows;  // active for the whole layer
};

// One layer's dispatch and combine: durations, or extra latency under a background.
struct LayerUs {
  double dispatch_us = 0, combine_us = 0;
  bool operator==(const LayerUs&) const = default;
};

// Extra µs summed over one iteration's phases, and how many layers saw a background.
struct A2AExcess {
  double dispatch_us = 0, combine_us = 0;
  int loaded_phases = 0;
};

class PacketPhaseOracle {
 public:
  PacketPhaseOracle(const Deployment& d, uint64_t seed);

  LayerQuery quantise(const LayerQuery& q) const;
  static std::string key(const LayerQuery& quantised);
  // Memoised distribution (one entry per sample) of the layer's extra latency under the query's
  // background.
  const std::vector<LayerUs>& excess_us(const LayerQuery& q);

  struct Paired {
    std::vector<LayerUs> loaded, idle;
  };
  // Direct packet simulation of q as given (no quantisation); `idle`, when given, holds the idle
  // runs of these samples already (they are not run again).
  Paired simulate(const LayerQuery& q, int samples, uint64_t seed,
                  const std::vector<LayerUs>* idle = nullptr) const;
  uint64_t sample_seed(const LayerQuery& quantised) const;
  // The packet experiment of one sample of q: the cluster fabric seeded with `seed`, the layer's
  // all-to-all (workloads[0]) and, `loaded`, q's flows paced at their rates.
  packet::ExperimentConfig layer_experiment(const LayerQuery& q, uint64_t seed, bool loaded) const;

  // One decode iteration: `verify_layers` MoE layers with verify tokens, then (EAGLE) one
  // draft-extend layer with verify tokens and `draft_steps` layers with draft tokens, spread
  // evenly over `iteration_us`; a flow is active in a layer while remaining_bytes at its rate
  // lasts. One draw per layer from the memoised distribution, with `rng`.
  A2AExcess iteration_excess(const std::vector<int>& verify_tokens,
                             const std::vector<int>& draft_tokens, int verify_layers,
                             int draft_steps, int first_node,
                             const std::vector<BackgroundFlow>& flows, double iteration_us,
                             Rng& rng);
  Json stats() const;

 private:
  const Deployment& d_;
  uint64_t seed_;
  int samples_;
  std::map<std::string, std::vector<LayerUs>> memo_;
  std::map<std::string, std::vector<LayerUs>> idle_memo_;  // idle key → idle µs per sample
  long packet_runs_ = 0, draws_ = 0;
};

}  // namespace pdsim

#pragma once
// Packet fidelity of the decode all-to-all: how much longer a dispatch or combine phase takes
// because of the background on the decode nodes' NICs and paths (KV transfers and PP activation
// sends in flight), from the packet engine (sim/packet).
//
// A query is the phase, the EP ranks' first cluster node, the tokens per rank and the flows in
// flight (source, destination, KV or PP, rate achieved in the serving simulation). The packet
// engine runs `fabric.packet_samples` phases (fresh routing each) on the cluster fabric
// (cluster_fabric.hpp) with the flows paced at their rates, and the same phases (same seed, so
// the same routing draws) on an idle fabric; the paired differences are the distribution of the
// background's extra latency. The analytic backend keeps the phase's base time (it carries the
// calibrated CPU-proxy / IBGDA issue costs, which the packet run does not: it issues from the
// GPU), so an idle background reproduces analytic fidelity exactly.
//
// Memo key (quantised query; documented in sim/serve/README.md):
//   phase, first node of the EP ranks,
//   tokens: per node, every rank gets its node's mean tokens per rank, rounded to the nearest
//           (in ratio) point of the grid 1,2,3,4,6,8,12,… (×1.5 / ×1.33 steps); a node whose
//           ranks have no tokens stays at 0,
//   flows:  merged per (KV|PP, source, destination) with rates summed, each rate rounded to the
//           nearest power of √2 Gb/s; remaining bytes are not in the key: they decide, phase by
//           phase within an iteration, whether the flow is still active (iteration_excess).
// Each sample is its own short packet run (own routing draw, own ECMP / SRD path realisation),
// seeded from (run seed, phase, first node, tokens buckets) only, so memo contents do not depend
// on call order and the run is deterministic.
#include <map>
#include <string>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/serve/deployment.hpp"

namespace pdsim {

struct BackgroundFlow {
  int src_node = 0, dst_node = 0;  // cluster nodes (cluster_fabric.hpp numbering)
  bool kv = true;                  // KV transfer (on the KV rails) or PP send (all NICs)
  double rate_gbps = 0;            // what it achieves in the serving simulation
  double remaining_bytes = 0;
};

struct PhaseQuery {
  A2APhase phase = A2APhase::dispatch;
  int first_node = 0;  // cluster node of EP rank 0
  std::vector<int> tokens_per_rank;
  std::vector<BackgroundFlow> flows;  // active for the whole phase
};

// Extra µs summed over one iteration's phases, and how many phases saw a background.
struct A2AExcess {
  double dispatch_us = 0, combine_us = 0;
  int loaded_phases = 0;
};

class PacketPhaseOracle {
 public:
  PacketPhaseOracle(const Deployment& d, uint64_t seed);

  PhaseQuery quantise(const PhaseQuery& q) const;
  static std::string key(const PhaseQuery& quantised);
  // Memoised distribution of the phase's extra latency under the query's background.
  const std::vector<double>& excess_us(const PhaseQuery& q);

  struct Paired {
    std::vector<double> loaded_us, idle_us;
  };
  // Direct packet simulation of q as given (no quantisation); `idle`, when given, holds the idle
  // runs of these samples already (they are not run again).
  Paired simulate(const PhaseQuery& q, int samples, uint64_t seed,
                  const std::vector<double>* idle = nullptr) const;
  uint64_t sample_seed(const PhaseQuery& quantised) const;

  // One decode iteration: `verify_layers` phase pairs with verify tokens, then (EAGLE) one
  // draft-extend pair with verify tokens and `draft_steps` pairs with draft tokens, spread
  // evenly over `iteration_us`; a flow is active in a phase while remaining_bytes at its rate
  // lasts. One draw per phase from the memoised distribution, with `rng`.
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
  std::map<std::string, std::vector<double>> memo_;
  std::map<std::string, std::vector<double>> idle_memo_;  // idle key → idle phase µs per sample
  long packet_runs_ = 0, draws_ = 0;
};

}  // namespace pdsim

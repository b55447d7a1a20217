#pragma once
// MoE all-to-all (one dispatch or one combine of one MoE layer) at analytic fidelity.
// Routing is sampled per layer (top-k of the routed experts, uniform by default — EPLB's goal);
// experts are placed contiguously (expert e on rank e / experts_per_rank). Low-latency mode
// sends one message per (token, expert) copy (DeepEP/UCCL-EP LL semantics); the phase ends when
// the slowest rank has sent and received everything (a barrier across all EP ranks).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/registry.hpp"
#include "sim/core/rng.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

struct A2AConfig {
  int ep_ranks = 16;
  int gpus_per_node = 8;
  int num_experts = 256;
  int top_k = 8;
  int hidden = 6144;
  double nics_per_gpu = 2;  // NICs an EP rank can use (p5en: 16 NICs / 8 GPUs)
  double nic_gbps = 200;    // line rate per NIC
  int experts_per_rank() const { return num_experts / ep_ranks; }
  int node_of(int rank) const { return rank / gpus_per_node; }
};

enum class A2APhase { dispatch, combine };
// Bytes per token copy: FP8 dispatch hidden + hidden/128·4 + 16; BF16 combine 2·hidden
// (DeepEP low-latency message layout, as quoted in calibration-inputs.md).
double a2a_message_bytes(const A2AConfig& c, A2APhase phase);

struct Routing {
  int ranks = 0;
  std::vector<int> copies;  // copies[src * ranks + dst]: (token, expert) copies src→dst
  std::vector<int> tokens_per_expert;  // global expert id → tokens routed to it
  int at(int src, int dst) const { return copies[static_cast<size_t>(src * ranks + dst)]; }
};
Routing sample_routing(const A2AConfig& c, const std::vector<int>& tokens_per_rank, Rng& rng);

struct A2APhaseTime {
  double total_us = 0;  // phase duration (slowest rank, barrier included)
  int slowest_rank = -1;
  std::map<std::string, double> terms_us;  // the slowest rank's time split into named terms
  // The slowest rank's pipelined resources that were hidden under the binding one (terms_us sums
  // to total_us; these do not add to it).
  std::map<std::string, double> overlapped_us;
};

class A2ABackend {
 public:
  virtual ~A2ABackend() = default;
  virtual std::string name() const = 0;
  virtual A2APhaseTime phase(const A2AConfig& c, const Routing& r, A2APhase phase) const = 0;
};

// Backends read their fitted parameters from profile.a2a[name]; a missing block is an
// InputError naming the profile file.
using A2ABackendRegistry = Registry<"fabric.a2a_backend", A2ABackend, const FabricProfile&>;

}  // namespace pdsim

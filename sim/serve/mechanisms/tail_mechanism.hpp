#pragma once
// Tail mechanisms of the decode iteration: a registered family (`pdsim list`), each with one slot
// in MechanismTerms. Two kinds:
//   - terms of the iteration rule (dp_imbalance, expert_imbalance, cuda_graph_miss): the timer
//     computes them while it composes the passes (slowest or mean rank, graph replay or eager
//     launch); their factory returns null, the registration only names the slot;
//   - mechanisms applied after the rule (batch_jump, fabric_background, scheduler_hiccup): the
//     factory returns an object when the scenario switches the mechanism on (else null); each
//     adds its delay to the breakdown and records it. They run in name order, a fixed order, so
//     those that draw from the iteration's RNG draw in the same sequence every run.
// A new mechanism is one file: its class, its configuration declared beside it and registered as
// a section of the scenario's `tail` (PDSIM_CONFIG_SECTION, sim/core/config_sections.hpp; with a
// provenance for its parameters), and one PDSIM_REGISTER line. A mechanism with no published or
// measured figure behind it stays off by default.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/rng.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/forward_terms.hpp"
#include "sim/serve/entities/flows_in_flight.hpp"
#include "sim/serve/entities/predicted_failure.hpp"
#include "sim/serve/entities/rank_state.hpp"
#include "sim/serve/mechanisms/mechanism_terms.hpp"

namespace pdsim {

class PacketPhaseOracle;

// What a mechanism may read when it is created for one simulation.
struct MechanismEnv {
  const Deployment& d;
  uint64_t seed = 0;
  PacketPhaseOracle* oracle = nullptr;  // the fidelity's all-to-all excess; null at analytic
};

// One decode iteration as the mechanisms see it.
struct IterationContext {
  int instance = 0;
  const std::vector<RankState>& ranks;
  const FlowsInFlight& flows;  // KV / PP flows in flight
  double now_s = 0;            // simulated time at the iteration's start
};

class TailMechanism {
 public:
  virtual ~TailMechanism() = default;
  // Adds this iteration's delay to `t` and records it in `m` (its own slot).
  virtual void apply(const IterationContext& c, ForwardTerms& t, MechanismTerms& m, Rng& rng) = 0;
  // The first failure this mechanism predicted in the run, if any.
  virtual const PredictedFailure* failure() const { return nullptr; }
};

using TailMechanismRegistry = Registry<"tail.mechanism", TailMechanism, const MechanismEnv&>;

}  // namespace pdsim

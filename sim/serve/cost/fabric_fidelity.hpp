#pragma once
// `fabric.fidelity`, a registered family (`pdsim list`): how the serving simulation sees the
// network beyond the analytic all-to-all and the SimGrid fluid flows.
//   analytic — nothing more;
//   packet   — the packet engine (sim/packet) prices each decode all-to-all phase's extra latency
//              under the flows in flight (packet_phase_oracle.hpp), and the cluster fabric is
//              built once at deployment time so that a bad topology fails before simulating.
#include <cstdint>
#include <memory>

#include "sim/core/registry.hpp"

namespace pdsim {

struct Deployment;
class PacketPhaseOracle;

class FabricFidelity {
 public:
  virtual ~FabricFidelity() = default;
  // Checks what this fidelity needs of the deployment (InputError naming the scenario field).
  virtual void check(const Deployment& d) const = 0;
  // The decode all-to-all's excess under the flows in flight, or null when this fidelity has none.
  virtual std::unique_ptr<PacketPhaseOracle> a2a_oracle(const Deployment& d,
                                                        uint64_t seed) const = 0;
};

using FabricFidelityRegistry = Registry<"fabric.fidelity", FabricFidelity>;

}  // namespace pdsim

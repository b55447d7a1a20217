// Fidelity `analytic`: the all-to-all phases are the backend's analytic durations; KV and PP flows
// share NIC links as SimGrid fluid flows and do not slow the all-to-all.
#include "sim/serve/cost/fabric_fidelity.hpp"
#include "sim/serve/cost/packet_phase_oracle.hpp"

namespace pdsim {
namespace {

class AnalyticFidelity final : public FabricFidelity {
 public:
  void check(const Deployment&) const override {}
  std::unique_ptr<PacketPhaseOracle> a2a_oracle(const Deployment&, uint64_t) const override {
    return nullptr;
  }
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(
    pdsim::FabricFidelityRegistry, "analytic",
    "all-to-all phases from the backend's analytic model; flows share NICs as fluid flows",
    [] { return std::make_unique<pdsim::AnalyticFidelity>(); })

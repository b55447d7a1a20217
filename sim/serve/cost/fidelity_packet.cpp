// Fidelity `packet`: each decode all-to-all phase keeps its analytic duration plus the extra
// latency the packet engine measures for it under the KV / PP flows in flight (MoE models only).
#include "sim/core/error.hpp"
#include "sim/serve/cost/cluster_fabric.hpp"
#include "sim/serve/cost/fabric_fidelity.hpp"
#include "sim/serve/cost/packet_phase_oracle.hpp"

namespace pdsim {
namespace {

class PacketFidelity final : public FabricFidelity {
 public:
  void check(const Deployment& d) const override {
    if (d.model.is_moe() && !d.decode_layout.moe_a2a)
      throw InputError(d.scenario.file, "fabric.fidelity",
                       "analytic (the packet engine simulates the decode all-to-all; "
                       "decode.moe_a2a_backend none has none)");
    check_cluster_fabric(d);
  }
  std::unique_ptr<PacketPhaseOracle> a2a_oracle(const Deployment& d, uint64_t seed) const override {
    if (!d.model.is_moe()) return nullptr;
    return std::make_unique<PacketPhaseOracle>(d, seed);
  }
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::FabricFidelityRegistry, "packet",
               "adds the packet engine's all-to-all excess under the KV / PP flows in flight",
               [] { return std::make_unique<pdsim::PacketFidelity>(); })

#include "sim/fabric/transfers.hpp"

#include <algorithm>

#include "sim/core/units.hpp"

namespace pdsim {

double nic_effective_rate(const FabricProfile& p, double nic_gbps) {
  return gbps_to_bytes_per_s(nic_gbps) * p.rdma_nic_efficiency;
}

double kv_transfer_rate(const FabricProfile& p, double block_bytes, int nics, double nic_gbps) {
  // The published curve was measured with kv_reference_nics NICs; engines stripe blocks over
  // NICs, so the achieved rate scales with the NICs used, capped by what those NICs can carry.
  const double curve_GBps = p.kv_block_GBps.at(block_bytes).eff;
  const double scaled = GBps_to_bytes_per_s(curve_GBps) * nics / std::max(1, p.kv_reference_nics);
  return std::min(scaled, nics * nic_effective_rate(p, nic_gbps));
}

double nvlink_allgather_us(const FabricProfile& p, double bytes_per_rank, int ranks) {
  if (ranks <= 1) return 0;
  const double steps = ranks - 1;
  if (p.nvlink_measured.allgather) {
    // Direct push measured by hwkernels: one synchronisation, (n−1)/n of the gathered bytes per
    // GPU.
    const CollectiveFit& f = p.nvlink_measured.allgather_fit;
    return f.alpha_us + steps * bytes_per_rank / GBps_to_bytes_per_s(f.busbw_GBps) * 1e6;
  }
  // Ring: n−1 steps, each moving one rank's share: (n−1)/n of the gathered bytes per GPU.
  return steps * bytes_per_rank / GBps_to_bytes_per_s(p.nvlink_GBps) * 1e6 +
         steps * p.nvlink_alpha_us;
}

double nvlink_normal_a2a_us(const FabricProfile& p, double bytes_per_rank, int ranks,
                            A2APhase phase) {
  if (ranks <= 1) return 0;
  const auto& m = p.nvlink_measured;
  if (m.normal_a2a_ranks == ranks) {
    // Measured rates are bytes per rank / whole-phase time (synchronisation included).
    const double GBps =
        phase == A2APhase::dispatch ? m.normal_dispatch_GBps : m.normal_combine_GBps;
    return bytes_per_rank / GBps_to_bytes_per_s(GBps) * 1e6;
  }
  // The published normal-mode figures are bytes moved per rank / time at EP8 inside one node.
  return p.nvlink_alpha_us + bytes_per_rank / GBps_to_bytes_per_s(p.nvlink_normal_a2a_GBps) * 1e6;
}

}  // namespace pdsim

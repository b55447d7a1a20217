#pragma once
// Non-all-to-all transfers at analytic fidelity: KV-cache transfer engines, PP activation sends,
// intra-node collectives of context-parallel prefill and normal-mode EP all-to-all.
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

// Achieved node-level rate (bytes/s) of a KV transfer engine moving blocks of `block_bytes`
// over `nics` NICs of `nic_gbps`, never above the NICs' line rate × efficiency.
double kv_transfer_rate(const FabricProfile& p, double block_bytes, int nics, double nic_gbps);
// Per-NIC achieved bytes/s for large messages.
double nic_effective_rate(const FabricProfile& p, double nic_gbps);
// Ring all-gather of `bytes_per_rank` among `ranks` GPUs over NVLink.
double nvlink_allgather_us(const FabricProfile& p, double bytes_per_rank, int ranks);
// Normal-mode (prefill) EP all-to-all inside one node: each GPU sends/receives `bytes_per_rank`.
double nvlink_normal_a2a_us(const FabricProfile& p, double bytes_per_rank, int ranks);

}  // namespace pdsim

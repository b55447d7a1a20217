#pragma once
// Non-all-to-all transfers at analytic fidelity: KV-cache transfer engines, PP activation sends,
// intra-node collectives of context-parallel prefill and normal-mode EP all-to-all.
#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

// Achieved node-level rate (bytes/s) of a KV transfer engine moving blocks of `block_bytes`
// over `nics` NICs of `nic_gbps`, never above the NICs' line rate × efficiency.
double kv_transfer_rate(const FabricProfile& p, double block_bytes, int nics, double nic_gbps);
// Per-NIC achieved bytes/s for large messages.
double nic_effective_rate(const FabricProfile& p, double nic_gbps);
// All-gather of `bytes_per_rank` among `ranks` GPUs over NVLink: the measured fit
// alpha + (ranks − 1) B / busbw when the GPU profile has one, else a ring of (ranks − 1) steps of
// nvlink_alpha_us + B / nvlink_GBps.
double nvlink_allgather_us(const FabricProfile& p, double bytes_per_rank, int ranks);
// Normal-mode (prefill) EP all-to-all inside one node: each GPU sends/receives `bytes_per_rank`
// (copies × a2a_message_bytes of the phase). Measured per-phase rates when they were measured at
// this EP degree, else nvlink_alpha_us + B / nvlink_normal_a2a_GBps (published).
double nvlink_normal_a2a_us(const FabricProfile& p, double bytes_per_rank, int ranks,
                            A2APhase phase);

}  // namespace pdsim

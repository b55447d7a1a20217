#pragma once
// Which figures the analytic fabric's NVLink terms use: the fabric profile's (published: NCCL
// all-reduce bus bandwidth, UCCL-EP normal mode, no latency) unless the GPU profile carries a
// measured `intranode` section (hwkernels/reproduce_intranode.sh), whose figures then replace
//  - nvlink_GBps (intra-node copies of the decode all-to-all; ring all-gather fallback) by the
//    measured per-GPU P2P bandwidth with every rank pushing at once,
//  - nvlink_alpha_us by the measured one-way P2P latency,
//  - the CP all-gather by the measured fit alpha + (n − 1) B / busbw,
//  - the prefill normal-mode EP all-to-all by the measured per-phase rates, but only at the EP
//    degree they were measured at (the phase's efficiency depends on the rank count).
// Per-GPU figures are taken to hold for any rank count inside one NVSwitch domain (the switch
// is non-blocking; each GPU's own links bound it), so a run on fewer GPUs than a deployment
// uses still replaces them; the profile records how many GPUs it measured.
#include "models/gpu_profile.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

// Applies `gpu`'s intranode section to `fabric` (no-op if absent); returns, per NVLink term,
// the source used, for the run's resolved profiles.
Json apply_intranode_profile(FabricProfile& fabric, const GpuProfile& gpu);

}  // namespace pdsim

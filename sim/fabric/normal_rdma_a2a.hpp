#pragma once
// DeepEP's normal mode (prefill) across nodes: each token goes once over RDMA to every other node
// that holds at least one of its top-k experts (then over NVLink to the experts' GPUs there);
// combine returns the same tokens in BF16. DeepEP's test_internode reports the phase as "RDMA
// BW" = RDMA bytes a rank sends / whole-phase time (NVLink forwarding pipelined under it), so the
// phase time at the measured shape is RDMA bytes / that rate. The rates are a backend's, in its
// profile block: normal_ranks (EP degree measured), normal_tokens_per_rank,
// normal_dispatch_rdma_GBps (FP8 tokens: hidden × (1 + 4/128) bytes, DeepEP's accounting) and
// normal_combine_rdma_GBps (BF16: 2 × hidden bytes).
#include <optional>
#include <string>

#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

struct NormalRdmaRates {
  int ranks = 0;
  double tokens_per_rank = 0;
  double dispatch_GBps = 0, combine_GBps = 0;
};

// profile.a2a[backend]'s normal-mode rates; nullopt when the block has none (InputError naming
// the profile file and field for a malformed one).
std::optional<NormalRdmaRates> normal_rdma_rates(const FabricProfile& p,
                                                 const std::string& backend);

// Expected RDMA bytes one rank sends in a phase: tokens × expected other nodes holding one of a
// token's top-k experts (uniform routing, experts contiguous by rank) × bytes per token.
double normal_rdma_bytes_per_rank(const A2AConfig& c, double tokens_per_rank, A2APhase phase);

// Phase time in µs: bytes / the measured rate of the phase.
double normal_rdma_a2a_us(const NormalRdmaRates& r, double rdma_bytes_per_rank, A2APhase phase);

}  // namespace pdsim

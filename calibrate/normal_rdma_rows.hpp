#pragma once
// A backend's cross-node normal-mode (prefill) all-to-all rates, the profile block's
// normal_ranks / normal_tokens_per_rank / normal_{dispatch,combine}_rdma_GBps
// (sim/fabric/normal_rdma_a2a.hpp), from measurement files in either form:
//  - "a2a_normal_rdma" rows: the rates as DeepEP's test_internode prints them ("RDMA BW");
//  - "a2a_phase" rows in normal mode whose EP spans nodes, with a whole-phase `latency_us` at
//    `tokens_per_rank`: rate = the RDMA bytes a rank sends at that shape
//    (normal_rdma_bytes_per_rank, the row's dispatch dtype: fp8 by default, "bf16" when
//    `dispatch_dtype` says so) / latency.
// The rates are bytes per µs of phase time, so applying them to FP8 bytes when the row dispatched
// BF16 assumes the phase time scales with the bytes (stated in the report).
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// The settings for `backend` (empty object when no file has them); `report` gets the rows used
// and how each rate was obtained.
Json normal_rdma_settings(const std::string& backend, const std::vector<JsonNode>& docs,
                          Json* report);

}  // namespace pdsim

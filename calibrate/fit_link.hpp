#pragma once
// Link-level fits from measurement rows: the RDMA small-message latency (α–β line through
// ping-pong rows), the NIC efficiency for large writes (KV-transfer peak over line rate, or
// packet framing from physics), the KV block-size curve, and the NVLink figures.
#include <string>
#include <vector>

#include "models/gpu_profile.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

struct AlphaBetaFit {
  double alpha_us = 0, us_per_byte = 0;  // one-way latency = α + bytes·us_per_byte
  Json report;
};
// Rows of "pingpong" documents (rows with "path": "local_nic" are loop-back, not used). With one
// distinct size only α is fitted.
AlphaBetaFit fit_alpha_beta(const std::vector<JsonNode>& docs);

struct KvCurveFit {
  EfficiencyCurve curve;  // x = block bytes, eff = GB/s
  int reference_nics = 0;
  double peak_efficiency = 0;  // max GB/s / (nics × line rate)
  double first_submit_ms = 0;
  bool has_first_submit = false;
  Json report;
};
// "kv_transfer" rows with op "write" (the direction prefill→decode uses).
KvCurveFit fit_kv_curve(const std::vector<JsonNode>& docs);

struct FramingFit {
  double efficiency = 0, nic_gbps = 0;
  Json report;
};
FramingFit fit_framing(const std::vector<JsonNode>& docs);  // "framing" rows

// NVLink per-direction bandwidth from all-reduce bus bandwidth ("collective" rows), and the
// normal-mode intra-node EP all-to-all rate (mean of the a2a_phase rows with mode "normal" and
// ep ≤ gpus_per_node).
struct NvlinkFit {
  double GBps = 0, normal_a2a_GBps = 0;
  Json report;
};
NvlinkFit fit_nvlink(const std::vector<JsonNode>& docs);

}  // namespace pdsim

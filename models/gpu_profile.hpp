#pragma once
// GPU profile (models/profiles/gpu/NAME.json, schema "pdsim.gpu_profile/1"): achieved fractions of
// the datasheet roofline and fixed overheads, either datasheet-derived (efficiency 1 = ideal) or
// measured by hwkernels/. Efficiencies are tables over a shape variable, interpolated linearly
// in log(x) and clamped at the ends; a lookup outside the measured range is flagged so the cost
// model can report it.
#include <string>
#include <vector>

#include "models/intranode_profile.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

struct EfficiencyCurve {
  std::vector<double> x, eff;  // ascending x, efficiency in (0, 1]
  struct Lookup {
    double eff;
    bool out_of_range;
  };
  Lookup at(double xv) const;
};

struct GpuProfile {
  std::string name, gpu;
  Json provenance;
  EfficiencyCurve gemm_bf16;  // x = tokens (GEMM M); efficiency vs max(flop, byte) roofline
  EfficiencyCurve gemm_fp8;
  EfficiencyCurve grouped_gemm_fp8;  // x = tokens per expert
  EfficiencyCurve hbm_stream;        // x = bytes moved by the kernel; achieved / datasheet HBM
  EfficiencyCurve attention_decode;  // x = context tokens; memory-bound MLA decode
  EfficiencyCurve indexer_scan;      // x = context tokens; decode (one query token per request)
  // x = keys per request (c + q) of a prefill chunk; compute-bound logits of every query token.
  // Optional: absent (empty), prefill uses indexer_scan.
  EfficiencyCurve indexer_prefill;
  EfficiencyCurve attention_prefill;  // x = tokens in chunk; compute-bound prefill attention
  double kernel_launch_us = 0;        // eager launch, per kernel
  double graph_kernel_us = 0;         // CUDA-graph replay, per kernel
  double nvlink_GBps = 0;             // measured per-direction p2p; 0 = use the GPU spec
  double host_signal_rtt_us = 0;  // GPU→CPU→GPU flag round trip (proxy path); 0 = unmeasured
  IntranodeProfile intranode;     // optional measured NVLink section; present = false if absent
};

GpuProfile load_gpu_profile(const std::string& name_or_path, const std::string& from_file = "",
                            const std::string& field = "gpu_profile");
// Parses an in-memory profile document (`file` is used in messages).
GpuProfile gpu_profile_from_json(const Json& doc, const std::string& file);

}  // namespace pdsim

#pragma once
// Fabric profile (models/profiles/fabric/NAME.json, schema "pdsim.fabric_profile/1"): every
// parameter of the analytic fabric, produced by `pdsim calibrate fit` from measurement files
// (published figures until live-cluster data exists). Each fitted block keeps its residuals.
#include <string>

#include "models/gpu_profile.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

struct FabricProfile {
  std::string file;       // where it was loaded from (error messages); not serialised
  std::string name;       // "efa-p5en"
  std::string transport;  // "srd" or "rc"
  Json provenance;        // measurement files used, fit date, tool version
  Json fit;               // residuals and parameter uncertainty per fitted block

  // Inter-node RDMA path, per NIC.
  double rdma_alpha_us = 0;          // one-way small-message latency NIC→NIC
  double rdma_nic_efficiency = 1.0;  // achieved/line rate for large writes (headers, SRD/RC)
  // Intra-node NVLink path, per GPU and direction.
  double nvlink_alpha_us = 0;
  double nvlink_GBps = 0;             // achieved p2p bandwidth per direction
  double nvlink_normal_a2a_GBps = 0;  // achieved per-GPU bandwidth of normal-mode EP a2a (prefill)

  Json a2a;  // per-backend fitted parameters, keyed by backend name

  // KV-cache transfer (Mooncake/NIXL-like engines): achieved node-level GB/s against block size,
  // measured with `kv_reference_nics` NICs; scaled linearly with the NICs a transfer uses.
  EfficiencyCurve kv_block_GBps;  // x = block bytes, eff field holds GB/s
  int kv_reference_nics = 0;
  double kv_first_submit_ms = 0;

  // NCCL point-to-point (PP activations).
  double p2p_alpha_us = 0;
  double p2p_efficiency = 1.0;

  // Measured intra-node figures taken over from the GPU profile's `intranode` section by
  // apply_intranode_profile (sim/fabric/intranode_terms.hpp); never read from or written to the
  // fabric profile file.
  struct MeasuredNvlink {
    bool allgather = false;  // CP all-gather uses allgather_fit instead of the ring formula
    CollectiveFit allgather_fit;
    int normal_a2a_ranks = 0;  // EP degree the normal-mode rates were measured at; 0 = none
    double normal_dispatch_GBps = 0, normal_combine_GBps = 0;
  } nvlink_measured;
};

FabricProfile load_fabric_profile(const std::string& name_or_path,
                                  const std::string& from_file = "",
                                  const std::string& field = "fabric.profile");
Json fabric_profile_to_json(const FabricProfile& p);
// Parses an in-memory profile document (`file` is used in messages).
FabricProfile fabric_profile_from_json(const Json& doc, const std::string& file);

constexpr const char* kFabricProfileSchema = "pdsim.fabric_profile/1";

}  // namespace pdsim

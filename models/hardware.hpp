#pragma once
// GPU and instance-type catalog entries (models/catalog/gpu, models/catalog/instance).
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct GpuSpec {
  std::string name;              // "h200"
  double hbm_bytes = 0;          // capacity
  double hbm_GBps = 0;           // datasheet HBM bandwidth
  double bf16_dense_tflops = 0;  // datasheet dense peaks (no sparsity)
  double fp8_dense_tflops = 0;
  double nvlink_GBps = 0;  // per direction per GPU (900 GB/s bidirectional → 450)
  int sm_count = 0;
  Json provenance;
};

struct InstanceType {
  std::string name;  // "p5en.48xlarge"
  std::string gpu;   // catalog name of the GPU
  int gpus_per_node = 0;
  int nics_per_node = 0;
  double nic_gbps = 0;   // per NIC line rate
  std::string nic_kind;  // "efa" or "roce"
  int numa_domains = 0;
  Json provenance;
  double node_nic_bytes_per_s() const;
};

GpuSpec load_gpu(const std::string& name_or_path, const std::string& from_file = "",
                 const std::string& field = "gpu");
InstanceType load_instance(const std::string& name_or_path, const std::string& from_file = "",
                           const std::string& field = "cluster.instance_type");

}  // namespace pdsim

#include "models/hardware.hpp"

#include "sim/core/data_path.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

void check_schema(const JsonNode& n, const std::string& want) {
  if (n.at("schema").string() != want) n.at("schema").fail("expected \"" + want + "\"");
  read_provenance(n.at("provenance"));
}

}  // namespace

double InstanceType::node_nic_bytes_per_s() const {
  return nics_per_node * gbps_to_bytes_per_s(nic_gbps);
}

GpuSpec load_gpu(const std::string& name_or_path, const std::string& from_file,
                 const std::string& field) {
  JsonNode n = load_named("models/catalog/gpu", name_or_path, from_file, field);
  n.expect_only({"schema", "name", "hbm_bytes", "hbm_GBps", "bf16_dense_tflops", "fp8_dense_tflops",
                 "nvlink_GBps", "sm_count", "provenance"});
  check_schema(n, "pdsim.gpu/1");
  GpuSpec g;
  g.name = n.at("name").string();
  g.hbm_bytes = n.at("hbm_bytes").positive();
  g.hbm_GBps = n.at("hbm_GBps").positive();
  g.bf16_dense_tflops = n.at("bf16_dense_tflops").positive();
  g.fp8_dense_tflops = n.at("fp8_dense_tflops").positive();
  g.nvlink_GBps = n.at("nvlink_GBps").positive();
  g.sm_count = static_cast<int>(n.at("sm_count").positive_integer());
  g.provenance = n.at("provenance").raw();
  return g;
}

InstanceType load_instance(const std::string& name_or_path, const std::string& from_file,
                           const std::string& field) {
  JsonNode n = load_named("models/catalog/instance", name_or_path, from_file, field);
  n.expect_only({"schema", "name", "gpu", "gpus_per_node", "nics_per_node", "nic_gbps", "nic_kind",
                 "numa_domains", "provenance"});
  check_schema(n, "pdsim.instance/1");
  InstanceType t;
  t.name = n.at("name").string();
  t.gpu = n.at("gpu").string();
  t.gpus_per_node = static_cast<int>(n.at("gpus_per_node").positive_integer());
  t.nics_per_node = static_cast<int>(n.at("nics_per_node").positive_integer());
  t.nic_gbps = n.at("nic_gbps").positive();
  t.nic_kind = n.at("nic_kind").string();
  if (t.nic_kind != "efa" && t.nic_kind != "roce")
    n.at("nic_kind").fail("expected \"efa\" or \"roce\", got \"" + excerpt(t.nic_kind) + "\"");
  t.numa_domains = static_cast<int>(n.at("numa_domains").positive_integer());
  t.provenance = n.at("provenance").raw();
  return t;
}

}  // namespace pdsim

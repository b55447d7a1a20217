#include "sim/fabric/fabric_profile.hpp"

#include "sim/core/data_path.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

namespace {

EfficiencyCurve parse_rate_curve(const JsonNode& n) {
  n.expect_only({"x", "eff", "x_unit", "eff_unit", "note"});
  EfficiencyCurve c;
  c.x = n.at("x").numbers();
  c.eff = n.at("eff").numbers();
  if (c.x.empty()) n.at("x").fail("expected at least one block size");
  if (c.x.size() != c.eff.size())
    n.at("eff").fail("expected as many rates as x (" + std::to_string(c.x.size()) + ")");
  for (size_t i = 0; i < c.x.size(); ++i) {
    if (!(c.x[i] > 0)) n.at("x").at(i).fail("expected a positive block size in bytes");
    if (i > 0 && !(c.x[i] > c.x[i - 1])) n.at("x").at(i).fail("expected strictly ascending x");
    if (!(c.eff[i] > 0)) n.at("eff").at(i).fail("expected a positive rate in GB/s");
  }
  return c;
}

}  // namespace

FabricProfile fabric_profile_from_json(const Json& doc, const std::string& file) {
  JsonNode n = JsonNode::from_json(doc, file);
  n.expect_only({"schema", "name", "transport", "provenance", "fit", "rdma_alpha_us",
                 "rdma_nic_efficiency", "nvlink_alpha_us", "nvlink_GBps", "nvlink_normal_a2a_GBps",
                 "a2a", "kv_block_GBps", "kv_reference_nics", "kv_first_submit_ms", "p2p_alpha_us",
                 "p2p_efficiency"});
  if (n.at("schema").string() != kFabricProfileSchema)
    n.at("schema").fail(std::string("expected \"") + kFabricProfileSchema + "\"");
  FabricProfile p;
  p.file = file;
  p.name = n.at("name").string();
  p.transport = n.at("transport").string();
  if (p.transport != "srd" && p.transport != "rc")
    n.at("transport").fail("expected \"srd\" or \"rc\", got \"" + excerpt(p.transport) + "\"");
  p.provenance = read_provenance(n.at("provenance"));
  p.fit = n.has("fit") ? n.at("fit").raw() : Json::object();
  p.rdma_alpha_us = n.at("rdma_alpha_us").non_negative();
  p.rdma_nic_efficiency = n.at("rdma_nic_efficiency").fraction();
  if (p.rdma_nic_efficiency <= 0) n.at("rdma_nic_efficiency").fail("expected a fraction in (0, 1]");
  p.nvlink_alpha_us = n.at("nvlink_alpha_us").non_negative();
  p.nvlink_GBps = n.at("nvlink_GBps").positive();
  p.nvlink_normal_a2a_GBps = n.at("nvlink_normal_a2a_GBps").positive();
  if (!n.at("a2a").is_object()) n.at("a2a").fail("expected an object keyed by backend name");
  p.a2a = n.at("a2a").raw();
  p.kv_block_GBps = parse_rate_curve(n.at("kv_block_GBps"));
  p.kv_reference_nics = static_cast<int>(n.at("kv_reference_nics").positive_integer());
  p.kv_first_submit_ms = n.at("kv_first_submit_ms").non_negative();
  p.p2p_alpha_us = n.at("p2p_alpha_us").non_negative();
  p.p2p_efficiency = n.at("p2p_efficiency").fraction();
  if (p.p2p_efficiency <= 0) n.at("p2p_efficiency").fail("expected a fraction in (0, 1]");
  return p;
}

FabricProfile load_fabric_profile(const std::string& name_or_path, const std::string& from_file,
                                  const std::string& field) {
  JsonNode doc = load_named("models/profiles/fabric", name_or_path, from_file, field);
  return fabric_profile_from_json(doc.raw(), doc.file());
}

Json fabric_profile_to_json(const FabricProfile& p) {
  Json j;
  j["schema"] = kFabricProfileSchema;
  j["name"] = p.name;
  j["transport"] = p.transport;
  j["provenance"] = p.provenance.is_null() ? Json::object() : p.provenance;
  j["fit"] = p.fit.is_null() ? Json::object() : p.fit;
  j["rdma_alpha_us"] = p.rdma_alpha_us;
  j["rdma_nic_efficiency"] = p.rdma_nic_efficiency;
  j["nvlink_alpha_us"] = p.nvlink_alpha_us;
  j["nvlink_GBps"] = p.nvlink_GBps;
  j["nvlink_normal_a2a_GBps"] = p.nvlink_normal_a2a_GBps;
  j["a2a"] = p.a2a.is_null() ? Json::object() : p.a2a;
  j["kv_block_GBps"] = {{"x", p.kv_block_GBps.x},
                        {"eff", p.kv_block_GBps.eff},
                        {"x_unit", "bytes"},
                        {"eff_unit", "GB/s"}};
  j["kv_reference_nics"] = p.kv_reference_nics;
  j["kv_first_submit_ms"] = p.kv_first_submit_ms;
  j["p2p_alpha_us"] = p.p2p_alpha_us;
  j["p2p_efficiency"] = p.p2p_efficiency;
  return j;
}

}  // namespace pdsim

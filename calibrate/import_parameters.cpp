#include "calibrate/import_parameters.hpp"

#include "models/hardware.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/json_override.hpp"

namespace pdsim {

void add_import_parameters(Json& doc, const std::string& instance_type,
                           const std::vector<std::string>& params) {
  if (instance_type.empty() && params.empty()) return;
  if (!doc.contains("parameters") || !doc["parameters"].is_object())
    doc["parameters"] = Json::object();
  Json& p = doc["parameters"];
  Json added = Json::object();
  if (!instance_type.empty()) {
    const InstanceType it = load_instance(instance_type, "<command line>", "--instance-type");
    const Json from_catalog = {
        {"gpus_per_node", it.gpus_per_node},
        {"nics_per_gpu", static_cast<double>(it.nics_per_node) / it.gpus_per_node},
        {"nic_gbps", it.nic_gbps}};
    for (const auto& [k, v] : from_catalog.items()) {
      if (p.contains(k)) continue;
      p[k] = v;
      added[k] = "instance type " + it.name;
    }
  }
  for (const std::string& a : params) {
    if (a.find('=') == std::string::npos)
      throw InputError("<command line>", "--param", "KEY=VALUE, got '" + excerpt(a) + "'");
    auto [key, value] = split_assignment(a, "<command line>");
    if (key.find_first_of(".[") != std::string::npos)
      throw InputError("<command line>", "--param",
                       "KEY=VALUE with a plain parameter name, got '" + excerpt(a) + "'");
    p[key] = value;
    added[key] = "--param";
  }
  if (!added.empty()) doc["provenance"]["added_parameters"] = added;
}

}  // namespace pdsim

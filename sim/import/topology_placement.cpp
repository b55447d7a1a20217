#include "sim/import/topology_placement.hpp"

#include <algorithm>
#include <map>

#include "calibrate/measurement.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

int common_prefix(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return static_cast<int>(n);
}

}  // namespace

Json placement_from_aws_topology(const std::string& text, const std::string& file) {
  const Json rows = MeasurementImporterRegistry::instance()
                        .create("aws-topology", file, "importer")
                        ->parse(text, file)
                        .at("results");
  Json instances = Json::array(), unplaced = Json::array();
  std::vector<std::vector<std::string>> nodes;
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& r = rows[i];
    const std::string id = r.at("instance_id").get<std::string>();
    const std::string where = "Instances[" + std::to_string(i) + "]";
    if (seen.count(id))
      throw InputError(file, where + ".InstanceId",
                       "each instance once, \"" + id + "\" appears twice");
    seen[id] = i;
    auto nn = r.at("network_nodes").get<std::vector<std::string>>();
    if (nn.empty()) {
      unplaced.push_back(
          {{"instance_id", id}, {"reason", "no network nodes (the instance is not running)"}});
      continue;
    }
    for (const auto& n : nn)
      if (n.empty()) throw InputError(file, where + ".NetworkNodes", "non-empty network node ids");
    instances.push_back(r);
    nodes.push_back(std::move(nn));
  }
  size_t layers = 0;
  for (const auto& nn : nodes) layers = std::max(layers, nn.size());
  // Per layer, each network node with the instances under it, in order of first appearance.
  Json groups = Json::array();
  for (size_t l = 0; l < layers; ++l) {
    std::vector<std::pair<std::string, Json>> by_node;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (l >= nodes[i].size()) continue;
      // AWS network node ids are unique across the hierarchy: the id is the place.
      const std::string& node = nodes[i][l];
      auto it = std::find_if(by_node.begin(), by_node.end(),
                             [&](const auto& p) { return p.first == node; });
      if (it == by_node.end()) {
        by_node.push_back({node, Json::array()});
        it = by_node.end() - 1;
      }
      it->second.push_back(instances[i].at("instance_id"));
    }
    for (auto& [node, ids] : by_node)
      groups.push_back({{"layer", l + 1}, {"network_node", node}, {"instances", ids}});
  }
  Json shared = Json::array();
  for (size_t i = 0; i < nodes.size(); ++i) {
    Json row = Json::array();
    for (size_t j = 0; j < nodes.size(); ++j) row.push_back(common_prefix(nodes[i], nodes[j]));
    shared.push_back(row);
  }
  return Json{{"schema", "pdsim.placement/1"},
              {"source", {{"tool", "aws ec2 describe-instance-topology"}, {"file", file}}},
              {"layers", layers},
              {"instances", instances},
              {"unplaced", unplaced},
              {"layer_groups", groups},
              {"shared_layers", shared},
              {"scenario_cluster", {{"topology_file", file}}}};
}

}  // namespace pdsim

#include "sim/packet/topology_builders.hpp"

#include <filesystem>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim::packet {
namespace {

// Attaches `hosts` endpoints (NICs, node-major) to `sw`.
void attach(Topology& topo, int sw, int hosts, const LinkSpec& host) {
  for (int h = 0; h < hosts; ++h) topo.add_endpoint(sw, host);
}

int fat_tree(const TopologyConfig& c, const SwitchParams* p, Topology& topo, const LinkSpec& host,
             const LinkSpec& fabric) {
  const int half = c.k / 2;
  if (c.tiers == 2) {
    std::vector<int> leaves, spines;
    for (int i = 0; i < c.k; ++i) leaves.push_back(topo.add_switch(p, 0));
    for (int i = 0; i < half; ++i) spines.push_back(topo.add_switch(p, 1));
    for (int l : leaves) {
      attach(topo, l, c.hosts_per_edge, host);
      for (int s : spines) topo.connect(l, s, fabric);
    }
    return c.k * c.hosts_per_edge;
  }
  std::vector<int> cores;
  for (int i = 0; i < half * half; ++i) cores.push_back(topo.add_switch(p, 2));
  for (int pod = 0; pod < c.k; ++pod) {
    std::vector<int> edges, aggs;
    for (int i = 0; i < half; ++i) edges.push_back(topo.add_switch(p, 0));
    for (int i = 0; i < half; ++i) aggs.push_back(topo.add_switch(p, 1));
    for (int e : edges) {
      attach(topo, e, c.hosts_per_edge, host);
      for (int a : aggs) topo.connect(e, a, fabric);
    }
    for (int j = 0; j < half; ++j)  // aggregation switch j reaches cores j·k/2 .. j·k/2 + k/2 − 1
      for (int i = 0; i < half; ++i)
        topo.connect(aggs[static_cast<size_t>(j)], cores[static_cast<size_t>(j * half + i)],
                     fabric);
  }
  return c.k * half * c.hosts_per_edge;
}

}  // namespace

int build_topology(const TopologyConfig& c, const SwitchParams* p, const std::string& from_file,
                   Topology& topo) {
  const LinkSpec host{c.host_gbps, c.hop_latency_ps};
  const LinkSpec fabric{c.fabric_gbps, c.hop_latency_ps};
  int hosts = 0;
  if (c.kind == "fat_tree") {
    hosts = fat_tree(c, p, topo, host, fabric);
  } else if (c.kind == "leaf_spine") {
    std::vector<int> spines;
    std::vector<int> leaves;
    for (int i = 0; i < c.leaves; ++i) leaves.push_back(topo.add_switch(p, 0));
    for (int i = 0; i < c.spines; ++i) spines.push_back(topo.add_switch(p, 1));
    for (int l : leaves) {
      attach(topo, l, c.hosts_per_leaf, host);
      for (int s : spines) topo.connect(l, s, fabric);
    }
    hosts = c.leaves * c.hosts_per_leaf;
  } else if (c.kind == "rail") {
    const int per_rail = c.nodes / c.nodes_per_leaf;
    std::vector<int> leaves, spines;  // leaves[rail * per_rail + group]
    for (int i = 0; i < c.nics_per_node * per_rail; ++i) leaves.push_back(topo.add_switch(p, 0));
    for (int i = 0; i < c.spines; ++i) spines.push_back(topo.add_switch(p, 1));
    for (int n = 0; n < c.nodes; ++n)
      for (int r = 0; r < c.nics_per_node; ++r)
        topo.add_endpoint(leaves[static_cast<size_t>(r * per_rail + n / c.nodes_per_leaf)], host);
    for (int l : leaves)
      for (int s : spines) topo.connect(l, s, fabric);
    return c.nodes;
  } else {  // aws
    std::string path = c.aws_file;
    if (!std::filesystem::exists(path))
      path = (std::filesystem::path(from_file).parent_path() / c.aws_file).string();
    const JsonNode doc = JsonNode::load_file(path);
    const JsonNode inst = doc.at("Instances");
    std::map<std::string, int> node_switch;  // "layer/id" → switch
    int nodes = 0;
    for (size_t i = 0; i < inst.size(); ++i) {
      if (c.aws_instances > 0 && nodes == c.aws_instances) break;
      const JsonNode nn = inst.at(i).at("NetworkNodes");
      if (nn.size() == 0) continue;  // stopped instance
      if (nn.size() != c.aws_uplinks.size() + 1)
        nn.fail("expected " + std::to_string(c.aws_uplinks.size() + 1) +
                " network nodes (topology.uplinks has one entry per layer below the top)");
      int child = -1;
      for (size_t layer = nn.size(); layer-- > 0;) {  // bottom up
        const std::string key = std::to_string(layer) + "/" + nn.at(layer).string();
        auto it = node_switch.find(key);
        const bool fresh = it == node_switch.end();
        if (fresh)
          it = node_switch.emplace(key, topo.add_switch(p, static_cast<int>(nn.size() - 1 - layer)))
                   .first;
        if (child >= 0) topo.connect(child, it->second, fabric, c.aws_uplinks[layer]);
        if (!fresh) {
          child = -1;
          break;  // the rest of the chain exists already
        }
        child = it->second;
      }
      const int bottom =
          node_switch.at(std::to_string(nn.size() - 1) + "/" + nn.at(nn.size() - 1).string());
      attach(topo, bottom, c.nics_per_node, host);
      ++nodes;
    }
    if (nodes == 0) inst.fail("expected at least one instance with NetworkNodes");
    std::vector<int> tops;  // distinct top-layer nodes only meet above the listed hierarchy
    for (const auto& [key, sw] : node_switch)
      if (key.rfind("0/", 0) == 0) tops.push_back(sw);
    if (tops.size() > 1) {
      const int root = topo.add_switch(p, static_cast<int>(c.aws_uplinks.size()) + 1);
      for (int t : tops)
        topo.connect(t, root, fabric, c.aws_uplinks.empty() ? 1 : c.aws_uplinks[0]);
    }
    return nodes;
  }
  if (hosts % c.nics_per_node)
    throw InputError(from_file, "topology.nics_per_node",
                     "expected a divisor of the host count " + std::to_string(hosts));
  return hosts / c.nics_per_node;
}

}  // namespace pdsim::packet

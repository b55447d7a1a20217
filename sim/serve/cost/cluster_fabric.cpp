#include "sim/serve/cost/cluster_fabric.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/packet/network.hpp"

namespace pdsim {

int cluster_nodes(const Deployment& d) {
  const auto& s = d.scenario;
  return s.prefill.instances * s.prefill.nodes_per_instance +
         s.decode.instances * s.decode.nodes_per_instance;
}
int prefill_node_index(const Deployment& d, int instance, int node) {
  return instance * d.scenario.prefill.nodes_per_instance + node;
}
int decode_node_index(const Deployment& d, int instance, int node) {
  const auto& s = d.scenario;
  return s.prefill.instances * s.prefill.nodes_per_instance +
         instance * s.decode.nodes_per_instance + node;
}

namespace {

std::string topology_path(const Deployment& d) {
  std::filesystem::path p(d.scenario.cluster.topology_file);
  if (!p.is_absolute() && !std::filesystem::exists(p) && !d.scenario.file.empty())
    p = std::filesystem::path(d.scenario.file).parent_path() / p;
  return std::filesystem::absolute(p).string();
}

// Non-blocking uplink counts per layer for the first `nodes` instances of the file.
packet::TopologyConfig aws_topology(const Deployment& d, int nodes) {
  const std::string path = topology_path(d);
  const JsonNode doc = load_named("", path, d.scenario.file, "cluster.topology_file");
  const JsonNode inst = doc.at("Instances");
  std::vector<std::vector<std::string>> chains;
  for (size_t i = 0; i < inst.size() && static_cast<int>(chains.size()) < nodes; ++i) {
    const JsonNode nn = inst.at(i).at("NetworkNodes");
    if (nn.size() == 0) continue;
    std::vector<std::string> c;
    for (size_t l = 0; l < nn.size(); ++l) c.push_back(nn.at(l).string());
    if (!chains.empty() && c.size() != chains.front().size())
      nn.fail("expected the same number of network-node layers for every instance");
    chains.push_back(std::move(c));
  }
  if (static_cast<int>(chains.size()) < nodes)
    throw InputError(
        d.scenario.file, "cluster.topology_file",
        "expected at least " + std::to_string(nodes) + " instances with NetworkNodes in " + path +
            " (prefill nodes first, then decode nodes), found " + std::to_string(chains.size()));
  const size_t layers = chains.front().size();
  packet::TopologyConfig topo;
  topo.kind = "aws";
  topo.aws_file = path;
  topo.aws_instances = nodes;
  for (size_t layer = 0; layer + 1 < layers; ++layer) {  // links from layer+1 nodes to layer
    std::map<std::string, int> below;
    for (const auto& c : chains) below[c[layer + 1]] += 1;
    int most = 1;
    for (const auto& [k, n] : below) most = std::max(most, n);
    topo.aws_uplinks.push_back(most * d.instance.nics_per_node);
  }
  return topo;
}

}  // namespace

packet::ExperimentConfig cluster_experiment(const Deployment& d, uint64_t seed,
                                            const std::string& file) {
  const int nodes = cluster_nodes(d);
  const int nics = d.instance.nics_per_node;
  packet::ExperimentConfig c;
  c.file = file;
  c.seed = seed;
  c.max_time_ps = us_to_ps(1e6);
  packet::TopologyConfig& topo = c.topo;
  if (!d.scenario.cluster.topology_file.empty()) {
    topo = aws_topology(d, nodes);
  } else if (d.scenario.cluster.network == "rail") {
    topo.kind = "rail";
    topo.nodes = topo.nodes_per_leaf = nodes;
    topo.spines = nics;
  } else {
    topo.kind = "leaf_spine";
    topo.leaves = nodes;
    topo.spines = topo.hosts_per_leaf = nics;
  }
  topo.fabric_gbps = topo.host_gbps = d.instance.nic_gbps;
  topo.nics_per_node = nics;
  topo.gpus_per_node = d.instance.gpus_per_node;
  topo.nvlink_GBps = d.fabric.nvlink_GBps;
  topo.nvlink_latency_ps = us_to_ps(d.fabric.nvlink_alpha_us);
  const bool rc = d.fabric.transport == "rc";
  c.sw = packet::default_switch();
  packet::enable_ecn(c.sw, topo);
  if (rc) packet::enable_pfc(c.sw, topo);
  c.transport = rc ? "rc" : "srd";
  c.tp = packet::default_transport(topo);
  c.tp.dcqcn = rc;
  return c;
}

std::unique_ptr<packet::Network> cluster_network(const Deployment& d) {
  return std::make_unique<packet::Network>(
      cluster_experiment(d, d.scenario.seed, d.scenario.file + " (packet fabric)"));
}

void check_cluster_fabric(const Deployment& d) {
  const auto net_ptr = cluster_network(d);
  const packet::Network& net = *net_ptr;
  if (net.nodes() < cluster_nodes(d))
    throw InputError(d.scenario.file, "cluster.topology_file",
                     "expected at least " + std::to_string(cluster_nodes(d)) +
                         " nodes, the fabric has " + std::to_string(net.nodes()));
}

}  // namespace pdsim

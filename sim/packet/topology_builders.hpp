#pragma once
// Builders for the supported fabrics. Each adds its switches and one endpoint per NIC, node by
// node (endpoint = node · nics_per_node + nic), then the caller finalises routing.
//   fat_tree   k-ary, 2 tiers (k leaves, k/2 spines) or 3 tiers (k pods of k/2 edge and k/2
//              aggregation switches, (k/2)² cores); hosts_per_edge > k/2 oversubscribes.
//   leaf_spine every leaf to every spine, hosts_per_leaf hosts per leaf.
//   rail       rail-optimised: NIC r of every node goes to a leaf of rail r (nodes_per_leaf
//              nodes per leaf), every leaf to every spine.
//   aws        the network-node hierarchy of `aws ec2 describe-instance-topology`: one switch
//              per network node, an instance's NICs on its bottom node, `uplinks[layer]`
//              parallel links from each node to its parent.
#include "sim/packet/experiment.hpp"
#include "sim/packet/topology.hpp"

namespace pdsim::packet {

// Returns the number of nodes built. `params` must outlive the topology.
int build_topology(const TopologyConfig& c, const SwitchParams* params,
                   const std::string& from_file, Topology& topo);

}  // namespace pdsim::packet

#pragma once
// The serving cluster as a packet-engine fabric (packet fidelity): nodes are numbered prefill
// instances' nodes first, then decode instances' nodes, in scenario order.
//   network "leaf-spine" without topology_file: every node on its own leaf, one spine per NIC of
//            a node (non-blocking), i.e. the reference placement: all instances share the layer
//            above their own bottom node (mission.md: all 4 shared layer 2, none layer 3).
//   network "rail": rail-optimised, all nodes on one leaf per rail (NIC r of every node on rail
//            r): traffic between equal NIC indices is one switch hop, no ECMP choice.
//   topology_file: `aws ec2 describe-instance-topology` output; its first instances (with
//            NetworkNodes) are the cluster's nodes in the order above. Uplinks are non-blocking:
//            a network node has as many links to its parent as NICs below it (AWS describes its
//            UltraCluster network as non-blocking; no per-layer link counts are published).
// Transport from the fabric profile (srd | rc); switches ECN on, PFC on for rc; every other
// packet-engine parameter keeps its documented default (sim/packet/README.md).
#include <memory>
#include <string>

#include "sim/packet/experiment.hpp"
#include "sim/packet/network.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

int cluster_nodes(const Deployment& d);
int prefill_node_index(const Deployment& d, int instance, int node);
int decode_node_index(const Deployment& d, int instance, int node);
// The cluster's packet experiment without workloads (seed, 1 s time limit, topology, switch,
// transport); `file` is what its errors name as the experiment's file.
packet::ExperimentConfig cluster_experiment(const Deployment& d, uint64_t seed,
                                            const std::string& file);
// Builds the fabric once, so that a bad topology file fails before anything is simulated
// (InputError naming the scenario field or the topology file's field).
void check_cluster_fabric(const Deployment& d);
// The cluster's packet fabric, built and not run (its derived base RTT and transport timeouts).
std::unique_ptr<packet::Network> cluster_network(const Deployment& d);

}  // namespace pdsim

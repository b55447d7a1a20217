#pragma once
// Experiment file of `pdsim fabric` (schema "pdsim.fabric_experiment/1"): topology, switch,
// transport and sender-issue parameters, workloads and failure injections. Every field is read
// through JsonNode, so a bad file fails with the file, the field path and what was expected.
// Defaults are documented in sim/packet/README.md with their sources.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/packet/connection.hpp"
#include "sim/packet/queue.hpp"

namespace pdsim::packet {

struct TopologyConfig {
  std::string kind;                                // fat_tree | leaf_spine | rail | aws
  int k = 0, tiers = 3, hosts_per_edge = 0;        // fat_tree
  int leaves = 0, spines = 0, hosts_per_leaf = 0;  // leaf_spine
  int nodes = 0, nodes_per_leaf = 0;               // rail (leaves per rail = nodes/nodes_per_leaf)
  std::string aws_file;                            // aws: describe-instance-topology JSON
  std::vector<int> aws_uplinks;                    // aws: parallel links to the parent, per layer
  int aws_instances = 0;                           // aws: use the first N instances (0 = all)
  double host_gbps = 100, fabric_gbps = 100;
  Picoseconds hop_latency_ps = 0;
  int nics_per_node = 1, gpus_per_node = 1;
  double nvlink_GBps = 0;  // 0: no NVSwitch domain
  Picoseconds nvlink_latency_ps = 0;
};

struct DelayDistribution {
  std::string dist = "constant";  // constant | exponential | uniform | lognormal
  double a_us = 0, b_us = 0;      // value | mean | lo,hi | median,sigma
};

struct FailureSpec {
  int sw = -1, port = -1;               // a switch egress port ...
  int endpoint = -1;                    // ... or an endpoint's uplink
  Picoseconds down_ps = 0, up_ps = -1;  // up_ps < 0: stays down
  Picoseconds period_ps = 0;            // flap: repeat the down/up cycle every period
  int repeats = 1;
};

struct ExperimentConfig {
  std::string file;
  uint64_t seed = 1;
  Picoseconds max_time_ps = 0;
  TopologyConfig topo;
  SwitchParams sw;
  std::string transport;  // srd | rc
  TransportParams tp;
  bool issue_cpu_proxy = false;
  DelayDistribution issue_delay;
  bool srd_rto_default = true, srd_window_default = true, srd_penalty_default = true;
  bool srd_min_rto_default = true, srd_allowance_default = true;
  std::vector<JsonNode> workloads;
  std::vector<FailureSpec> failures;
};

ExperimentConfig parse_experiment(const JsonNode& root);

}  // namespace pdsim::packet

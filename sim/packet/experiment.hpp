#pragma once
// One packet-engine experiment as typed config: topology, switch, transport and sender-issue
// parameters, workloads and failure injections. Layers above build it in C++ (the serving
// simulation's packet fidelity, sim/serve/cost); `pdsim fabric` reads it from an experiment file
// (experiment_reader.hpp, the file edge). The documented defaults (README "Defaults and their
// sources") are the member initialisers and the functions below, and the reader applies the same
// ones, so C++ that sets what a file names gets the config the file gives.
#include <any>
#include <cstdint>
#include <string>
#include <vector>

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
  // 1 µs per hop: the upper end of "link and switch latency 0.5–1 µs per hop".
  Picoseconds hop_latency_ps = us_to_ps(1.0);
  int nics_per_node = 1, gpus_per_node = 1;
  double nvlink_GBps = 0;  // 0: no NVSwitch domain
  Picoseconds nvlink_latency_ps = 0;
  bool operator==(const TopologyConfig&) const = default;
};

struct DelayDistribution {
  std::string dist = "constant";  // constant | exponential | uniform | lognormal
  double a_us = 0, b_us = 0;      // value | mean | lo,hi | median,sigma
  bool operator==(const DelayDistribution&) const = default;
};

struct FailureSpec {
  int sw = -1, port = -1;               // a switch egress port ...
  int endpoint = -1;                    // ... or an endpoint's uplink
  Picoseconds down_ps = 0, up_ps = -1;  // up_ps < 0: stays down
  Picoseconds period_ps = 0;            // flap: repeat the down/up cycle every period
  int repeats = 1;
  bool operator==(const FailureSpec&) const = default;
};

struct WorkloadConfig {
  std::string kind;  // registered name (WorkloadRegistry)
  std::string name;  // in the outputs
  // Field path in the experiment, workloads[i]: errors name it and it seeds the workload's RNG,
  // so a workload built in C++ at index i draws what the same workload read from a file does.
  std::string path;
  Picoseconds start_ps = 0;
  // The kind's own settings: the typed config its kind defines when built in C++, or the
  // workload's JSON node when read from an experiment file (kinds without a typed config read
  // their fields from it; see file_fields in workload.hpp). std::any because kinds registered by
  // higher layers define their configs there, out of this layer's sight.
  std::any settings;
};

struct ExperimentConfig {
  std::string file;  // what errors and the summary name as the experiment's file
  uint64_t seed = 1;
  Picoseconds max_time_ps = us_to_ps(10e6);
  TopologyConfig topo;
  SwitchParams sw;
  std::string transport;  // srd | rc
  TransportParams tp;
  bool issue_cpu_proxy = false;
  DelayDistribution issue_delay;
  // Derived by Network from the base RTT unless set (README, "Assumptions").
  bool srd_rto_default = true, srd_window_default = true, srd_penalty_default = true;
  bool srd_min_rto_default = true, srd_allowance_default = true;
  std::vector<WorkloadConfig> workloads;
  std::vector<FailureSpec> failures;
};

// Shared buffer of 16 MB, the lower end of "switch buffer 16–32 MB"; no per-queue limit, ECN and
// PFC off.
SwitchParams default_switch();
// ECN on: Kmin/Kmax 100/400 KB per 25 Gb/s of the fabric links, Pmax 0.2 (HPCC ns-3).
void enable_ecn(SwitchParams& p, const TopologyConfig& topo);
// PFC on with the HPCC ns-3 switch MMU's dynamic threshold (XOFF at 1/8 of the free shared
// buffer, resume 3 KB below), headroom 3 × the fabric link's BDP, PAUSE of 65535 quanta
// (IEEE 802.1Qbb).
void enable_pfc(SwitchParams& p, const TopologyConfig& topo);
// TransportParams' defaults plus the DCQCN timers and increase steps for hosts of
// topo.host_gbps (calibration-inputs.md); DCQCN itself stays off.
TransportParams default_transport(const TopologyConfig& topo);

// GPUs and NICs per node must divide one another (NICs are split evenly among GPUs, or GPUs
// share a NIC); InputError naming topology.gpus_per_node otherwise. The reader checks it, and
// Network again for configs built in C++.
void check_gpus_and_nics(const TopologyConfig& t, const std::string& file);

// Appends a workload built in C++ at the next index i (path workloads[i], as the reader names a
// file's workload there); an empty name becomes kind[i], the reader's default.
WorkloadConfig& add_workload(ExperimentConfig& c, std::string kind, std::string name,
                             Picoseconds start_ps, std::any settings);

}  // namespace pdsim::packet

#pragma once
// Packet-engine workload `serve_background` of the serving simulation's packet fidelity
// (packet_phase_oracle.*): a transfer paced at the rate it achieves in the serving simulation
// (the KV engine's block rate, shared with other flows): one block every block_bytes / rate,
// round robin over NICs [first_nic, first_nic + nics), until `bytes` are posted. Models KV
// transfers and PP activation sends in flight during a decode all-to-all.
#include <cstdint>
#include <optional>
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/packet/experiment.hpp"

namespace pdsim::packet {

struct ServeBackgroundConfig {
  int src_node = 0, dst_node = 0;
  int64_t bytes = 0;
  double rate_gbps = 0;
  int64_t block_bytes = 0;
  int first_nic = 0;
  std::optional<int> nics;  // default: the node's NIC count (all of them, from NIC 0)
  bool operator==(const ServeBackgroundConfig&) const = default;
};

// Reads a serve_background workload of an experiment file (the file edge). What depends on the
// fabric is checked when the workload is made.
ServeBackgroundConfig read_serve_background(const JsonNode& workload);

// Appends a serve_background workload built in C++ (see add_workload).
WorkloadConfig& add_serve_background(ExperimentConfig& c, std::string name, Picoseconds start_ps,
                                     ServeBackgroundConfig flow);

}  // namespace pdsim::packet

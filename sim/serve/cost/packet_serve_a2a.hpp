#pragma once
// Packet-engine workload `serve_a2a`, the decode all-to-all of the serving simulation's packet
// fidelity (packet_phase_oracle.*). It differs from the generic `moe_a2a` in what the serving
// layer conditions on: DeepEP low-latency phases with a token count per rank (not one for all)
// and a NIC subset (the all-to-all's rails): NICs [first_nic, first_nic + nics) of each node,
// split evenly among its GPUs, same index at both ends. With `then_combine` (phase dispatch),
// each dispatch is followed, `gap` after it ends, by its combine: every (token, expert) copy sent
// back from the expert's rank to its source rank with combine-sized messages, i.e. one MoE
// layer's exchange on one background; phase times come as d0, c0, d1, c1, …. Optionally stops
// the run when its last phase ends (the background is endless by construction, so the run must
// end with the measurement).
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/packet/experiment.hpp"

namespace pdsim::packet {

struct ServeA2AConfig {
  int first_node = 0;  // node of EP rank 0; ranks fill gpus_per_node per node from there
  std::vector<int> tokens_per_rank;
  int num_experts = 0, top_k = 0, hidden = 0;
  A2APhase phase = A2APhase::dispatch;
  bool then_combine = false;
  int phases = 1;
  Picoseconds gap_ps = 0;
  int first_nic = 0;
  std::optional<int> nics;  // default: the node's NIC count (all of them, from NIC 0)
  bool stop_when_done = false;
  bool operator==(const ServeA2AConfig&) const = default;
};

// Reads a serve_a2a workload of an experiment file (the file edge; fields named as above, gap in
// gap_us). What depends on the fabric is checked when the workload is made.
ServeA2AConfig read_serve_a2a(const JsonNode& workload);

// Appends a serve_a2a workload built in C++ (see add_workload).
WorkloadConfig& add_serve_a2a(ExperimentConfig& c, std::string name, Picoseconds start_ps,
                              ServeA2AConfig a2a);

}  // namespace pdsim::packet

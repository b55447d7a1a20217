#pragma once
// Helpers for the packet-engine tests: build an experiment in memory and run it.
#include <memory>
#include <vector>

#include "sim/packet/experiment_reader.hpp"
#include "sim/packet/network.hpp"
#include "sim/packet/workload.hpp"

namespace pdsim::packet::testing {

struct Run {
  std::unique_ptr<Network> net;
  std::vector<std::unique_ptr<Workload>> workloads;
  // Picoseconds from post to delivery of message `i` of workload `w`.
  Picoseconds fct_ps(size_t w, size_t i) const {
    const auto& r = workloads[w]->records()[i];
    return r.delivered_ps - r.posted_ps;
  }
};

inline Run run_experiment(const Json& doc) {
  Run r;
  const ExperimentConfig cfg = parse_experiment(JsonNode::from_json(doc, "test.json"));
  r.net = std::make_unique<Network>(cfg);
  r.workloads = make_workloads(*r.net);
  for (auto& w : r.workloads) w->start();
  r.net->run();
  return r;
}

// Leaf-spine fabric of 100 Gb/s links and 1 µs hops, one NIC per node.
inline Json leaf_spine(int leaves, int spines, int hosts_per_leaf) {
  return Json{{"kind", "leaf_spine"}, {"leaves", leaves},
              {"spines", spines},     {"hosts_per_leaf", hosts_per_leaf},
              {"link_gbps", 100},     {"hop_latency_us", 1}};
}

}  // namespace pdsim::packet::testing

#pragma once
// The SimGrid platform of a serving scenario, built in code from the deployment: one host per
// node; per node one split-duplex link standing for all its NICs (capacity = NICs × achieved
// per-NIC rate from the fabric profile); one non-blocking core between nodes (a fat-pipe carrying
// the one-way small-message latency α); on each prefill node a link standing for the KV
// transfer engine, whose capacity is the engine's achieved rate at the configured block size,
// on the routes to decode nodes. Large flows — KV-cache transfers and PP activations —
// share the NIC links as SimGrid fluid flows. The non-blocking core is an assumption of the
// analytic fidelity (no ECMP collisions, no oversubscription); the packet fidelity models them.
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct ServePlatform {
  std::vector<simgrid::s4u::Host*> prefill_nodes;  // instance-major: [i * nodes + n]
  std::vector<simgrid::s4u::Host*> decode_nodes;
  simgrid::s4u::Host* router = nullptr;
};

// Call after the Engine exists; seals the zone.
ServePlatform build_platform(const Deployment& d);

}  // namespace pdsim

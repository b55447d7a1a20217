#include "sim/serve/actors/serving_world.hpp"

#include "sim/serve/cost/cluster_fabric.hpp"

namespace pdsim {

int ServingWorld::stage_node(int pi, int stage) const {
  return prefill_node_index(d, pi, stage * d.scenario.prefill.tp / d.instance.gpus_per_node);
}

simgrid::s4u::Host* ServingWorld::stage_host(int pi, int stage) const {
  return plat.prefill_nodes[static_cast<size_t>(stage_node(pi, stage))];
}

}  // namespace pdsim

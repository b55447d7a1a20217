#include "sim/serve/actors/flow_tracker.hpp"

namespace pdsim {

long FlowTracker::track(int src_node, int dst_node, bool kv, simgrid::s4u::CommPtr comm) {
  flows_[next_] = Flow{src_node, dst_node, kv, std::move(comm)};
  return next_++;
}

std::vector<InFlight> FlowTracker::in_flight() const {
  std::vector<InFlight> out;
  for (const auto& [handle, f] : flows_)
    out.push_back(InFlight{f.src, f.dst, f.kv, f.comm->get_remaining()});
  return out;
}

}  // namespace pdsim

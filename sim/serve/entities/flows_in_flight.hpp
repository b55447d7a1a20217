#pragma once
// The large flows in flight in a serving simulation (KV transfers, PP activation sends) as the
// tail mechanisms see them: what shares the decode nodes' NICs with an all-to-all. The SimGrid
// side that tracks them is actors/flow_tracker.hpp.
#include <vector>

namespace pdsim {

struct InFlight {
  int src = 0, dst = 0;  // cluster nodes (cluster_fabric.hpp numbering)
  bool kv = true;        // KV transfer, else PP activation send
  double remaining_bytes = 0;
};

class FlowsInFlight {
 public:
  virtual ~FlowsInFlight() = default;
  virtual std::vector<InFlight> in_flight() const = 0;  // in the order they were tracked
};

}  // namespace pdsim

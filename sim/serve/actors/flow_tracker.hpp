#pragma once
// The large flows in flight in a serving simulation (KV transfers, PP activation sends) as SimGrid
// communications, kept so that the packet fidelity can see what shares the decode nodes' NICs with
// an all-to-all (entities/flows_in_flight.hpp is the view the mechanisms read).
#include <map>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/serve/entities/flows_in_flight.hpp"

namespace pdsim {

class FlowTracker final : public FlowsInFlight {
 public:
  // Returns the flow's handle for erase().
  long track(int src_node, int dst_node, bool kv, simgrid::s4u::CommPtr comm);
  void erase(long handle) { flows_.erase(handle); }
  std::vector<InFlight> in_flight() const override;

 private:
  struct Flow {
    int src, dst;
    bool kv;
    simgrid::s4u::CommPtr comm;
  };
  std::map<long, Flow> flows_;
  long next_ = 0;
};

}  // namespace pdsim

#pragma once
// The large flows in flight in a serving simulation (KV transfers, PP activation sends), kept so
// that the packet fidelity can see what shares the decode nodes' NICs with an all-to-all.
#include <map>
#include <simgrid/s4u.hpp>
#include <vector>

namespace pdsim {

struct InFlight {
  int src = 0, dst = 0;  // cluster nodes (cluster_fabric.hpp numbering)
  bool kv = true;        // KV transfer, else PP activation send
  double remaining_bytes = 0;
};

class FlowTracker {
 public:
  // Returns the flow's handle for erase().
  long track(int src_node, int dst_node, bool kv, simgrid::s4u::CommPtr comm);
  void erase(long handle) { flows_.erase(handle); }
  std::vector<InFlight> in_flight() const;  // in the order they were tracked

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

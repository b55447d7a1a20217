#pragma once
// Topology: switches, endpoints (NIC ports, and GPU ports on a node's NVSwitch) and the queues
// that join them. Routing is shortest-path with ECMP: each switch picks among its equal-cost
// next hops towards the destination's switch by hashing the packet's entropy with its own id,
// so one entropy value is one path (RoCE per-QP hashing) and fresh entropies spread (SRD).
// Routes are built at the source as the sequence of egress queues (source routing of the
// hashed choices), which is what the per-hop hash would produce.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sim/packet/queue.hpp"

namespace pdsim::packet {

struct LinkSpec {
  double gbps = 100;
  Picoseconds latency_ps = 0;
};

class Topology {
 public:
  explicit Topology(const QueueEnv& env) : env_(env) {}

  // `params` must outlive the topology; `tier` labels the switch for statistics.
  int add_switch(const SwitchParams* params, int tier);
  // Endpoint attached to switch `sw` by one link in each direction.
  int add_endpoint(int sw, const LinkSpec& link);
  // `count` parallel links in each direction between two switches.
  void connect(int a, int b, const LinkSpec& link, int count = 1);
  void finalize();  // computes next-hop sets; call after the last add/connect

  // Route from endpoint `src` to endpoint `dst` (ends at `dst`'s sink); owned by the topology.
  const Route* route(int src, int dst, uint64_t entropy);
  // Number of distinct equal-cost paths between two endpoints (product of choices may
  // overcount merges; used only to bound path counts).
  int endpoints() const { return static_cast<int>(endpoints_.size()); }
  int switches() const { return static_cast<int>(switches_.size()); }
  Queue& uplink(int endpoint) { return *endpoints_[static_cast<size_t>(endpoint)].up; }
  void set_sink(int endpoint, PacketSink* sink) {
    endpoints_[static_cast<size_t>(endpoint)].sink = sink;
  }
  // Largest unloaded one-way latency between two endpoints (links + serialisation of `bytes`).
  Picoseconds max_path_latency_ps(int64_t bytes) const;

  struct LinkInfo {
    Queue* queue;
    std::string kind;  // "host_up", "host_down", "tierA-tierB"
    int from, to;      // switch ids, or -1-endpoint for endpoints
  };
  const std::vector<LinkInfo>& links() const { return links_; }
  // Queue of the `port`-th link leaving switch `sw` (for failure injection); nullptr if none.
  Queue* switch_port(int sw, int port) const;

 private:
  struct Hop {
    Queue* q;
    int to_switch;  // -1 for a link down to an endpoint
    int to_endpoint;
  };
  struct Switch {
    std::unique_ptr<SharedBuffer> buffer;
    const SwitchParams* params;
    int tier;
    std::vector<Hop> ports;
  };
  struct Endpoint {
    int sw;
    Queue* up;
    Queue* down;
    PacketSink* sink = nullptr;
  };
  Queue* new_queue(const LinkSpec& link, Switch* owner);
  static uint64_t mix(uint64_t x);

  QueueEnv env_;
  std::vector<std::unique_ptr<Queue>> queues_;
  std::vector<Switch> switches_;
  std::vector<Endpoint> endpoints_;
  std::vector<LinkInfo> links_;
  std::vector<int> leaf_index_;  // switch → index among switches with endpoints, or -1
  std::vector<int> leaves_;
  // next_[s * leaves + leaf]: range into hops_ of the equal-cost next hops from s to that leaf.
  std::vector<std::pair<uint32_t, uint32_t>> next_;
  std::vector<Hop> hops_;
  std::deque<Route> routes_;
};

}  // namespace pdsim::packet

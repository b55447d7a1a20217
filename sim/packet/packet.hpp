#pragma once
// Packets, their pool and routes. A route is the sequence of sinks a packet visits (egress
// queues, then the receiving endpoint); the packet carries its route and its position in it.
// Packets are recycled through a free list, so a run allocates only for its peak in flight.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "sim/core/units.hpp"

namespace pdsim::packet {

struct Packet;
class Queue;
class Connection;

class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void receive(Packet* pkt) = 0;
};

// Hops are stored inline: forwarding is on every packet's critical path, and one pointer chase
// less (route → hops) is a measurable share of the engine's time.
struct Route {
  static constexpr size_t kMaxHops = 14;  // 3-tier fat-tree paths have 7; AWS hierarchy 9
  std::array<PacketSink*, kMaxHops> hops{};
  size_t size = 0;
  void push(PacketSink* s) {
    if (size == kMaxHops) throw std::logic_error("packet route: more than kMaxHops hops");
    hops[size++] = s;
  }
};

enum class PacketType : uint8_t { data, ack, nak, cnp };

struct Packet {
  const Route* route = nullptr;
  Packet* next = nullptr;  // intrusive FIFO / free-list link
  Queue* prev = nullptr;   // the queue that last sent it (PFC ingress accounting)
  Connection* conn = nullptr;
  uint64_t seq = 0;         // PSN of a data packet; acknowledged PSN of an ACK/NAK
  Picoseconds sent_at = 0;  // when the transport handed it to the NIC
  uint32_t wire_bytes = 0;  // bytes on the wire (payload + headers)
  uint32_t payload_bytes = 0;
  uint32_t path = 0;  // path index (SRD) the packet took
  uint16_t hop = 0;
  PacketType type = PacketType::data;
  bool ecn = false;       // congestion experienced (set by a switch)
  bool ecn_echo = false;  // ACK carries the data packet's CE mark back
  bool retransmit = false;
};

class PacketPool {
 public:
  Packet* get() {
    if (!free_) grow();
    Packet* p = free_;
    free_ = p->next;
    *p = Packet{};
    return p;
  }
  void put(Packet* p) {
    p->next = free_;
    free_ = p;
  }
  size_t allocated() const { return blocks_.size() * kBlock; }

 private:
  static constexpr size_t kBlock = 4096;
  void grow();
  std::vector<std::unique_ptr<Packet[]>> blocks_;
  Packet* free_ = nullptr;
};

// Hands the packet to the next sink on its route.
inline void forward(Packet* pkt) {
  pkt->route->hops[pkt->hop++]->receive(pkt);
}

}  // namespace pdsim::packet

#include "sim/packet/nic.hpp"

#include <algorithm>
#include <limits>

namespace pdsim::packet {

void Nic::receive(Packet* pkt) {
  if (pkt->type == PacketType::data)
    pkt->conn->on_data(pkt);
  else
    pkt->conn->on_control(pkt);
}

void Nic::activate(Connection* c) {
  if (std::find(active_.begin(), active_.end(), c) == active_.end()) active_.push_back(c);
  port_.kick();
}

Packet* Nic::pull() {
  const Picoseconds now = events_.now();
  Picoseconds wake = std::numeric_limits<Picoseconds>::max();
  size_t tried = 0;
  while (tried < active_.size()) {
    if (rr_ >= active_.size()) rr_ = 0;
    Connection* c = active_[rr_];
    Picoseconds w = std::numeric_limits<Picoseconds>::max();
    if (Packet* p = c->next_packet(now, &w)) {
      p->hop = 1;  // hops[0] is this port, which the packet is now on
      ++rr_;
      return p;
    }
    wake = std::min(wake, w);
    if (!c->has_work()) {
      active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(rr_));
    } else {
      ++rr_;
      ++tried;
    }
  }
  if (wake != std::numeric_limits<Picoseconds>::max() && (wake_at_ < 0 || wake < wake_at_)) {
    wake_at_ = wake;
    events_.schedule(wake, this);
  }
  return nullptr;
}

void Nic::handle_event(int, Packet*) {
  if (events_.now() < wake_at_) return;  // superseded by an earlier wake-up
  wake_at_ = -1;
  port_.kick();
}

}  // namespace pdsim::packet

#include "sim/packet/connection.hpp"

#include "sim/packet/nic.hpp"

namespace pdsim::packet {

Packet* Connection::make_packet(uint64_t psn, int64_t payload) {
  Packet* p = env_.pool->get();
  p->conn = this;
  p->seq = psn;
  p->payload_bytes = static_cast<uint32_t>(payload);
  p->wire_bytes = static_cast<uint32_t>(payload + env_.params->header_bytes);
  p->sent_at = env_.events->now();
  ++env_.counters->data_packets;
  return p;
}

void Connection::deliver(Message& m) {
  if (m.owner) m.owner->on_delivered(m, env_.events->now());
}

void Connection::activate() {
  src_->activate(this);
}

}  // namespace pdsim::packet

namespace pdsim::packet {

void Connection::append_packets(Message& m) {
  const int64_t mtu = env_.params->mtu_bytes;
  m.first_psn = msg_of_psn_.size();
  const auto idx = static_cast<uint32_t>(messages_.size());
  int64_t left = m.bytes;
  do {  // a zero-byte message still takes one packet
    const int64_t payload = left < mtu ? left : mtu;
    msg_of_psn_.push_back(idx);
    payload_of_psn_.push_back(static_cast<uint32_t>(payload));
    left -= payload;
  } while (left > 0);
  m.end_psn = msg_of_psn_.size();
  m.packets_left = static_cast<int64_t>(m.end_psn - m.first_psn);
  messages_.push_back(m);
}

}  // namespace pdsim::packet

#include "sim/packet/nvlink_stream.hpp"

namespace pdsim::packet {

void NvlinkStream::post(Message m) {
  append_packets(m);
  activate();
}

Packet* NvlinkStream::next_packet(Picoseconds now, Picoseconds* wake_ps) {
  if (next_psn_ >= msg_of_psn_.size()) return nullptr;
  const Message& m = messages_[msg_of_psn_[next_psn_]];
  if (m.ready_ps > now) {
    *wake_ps = m.ready_ps;
    return nullptr;
  }
  const uint64_t psn = next_psn_++;
  Packet* p = make_packet(psn, payload_of_psn_[psn]);
  p->route = route_;
  return p;
}

void NvlinkStream::on_data(Packet* pkt) {
  Message& m = messages_[msg_of_psn_[pkt->seq]];
  env_.pool->put(pkt);
  if (--m.packets_left == 0) deliver(m);
}

}  // namespace pdsim::packet

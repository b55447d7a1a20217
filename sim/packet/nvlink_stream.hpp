#pragma once
// NvlinkStream: GPU-to-GPU traffic through a node's NVSwitch. NVLink is credit-based and
// lossless, so the stream needs no acknowledgements or retransmission: packets go out at the
// GPU port's rate in order and a message completes when its last packet arrives.
#include "sim/packet/connection.hpp"

namespace pdsim::packet {

class NvlinkStream : public Connection {
 public:
  NvlinkStream(const TransportEnv& env, Nic* src, Nic* dst, int src_ep, int dst_ep, uint64_t id)
      : Connection(env, src, dst, src_ep, dst_ep, id),
        route_(env.topo->route(src_ep, dst_ep, id)) {}
  void post(Message m) override;
  Packet* next_packet(Picoseconds now, Picoseconds* wake_ps) override;
  void on_data(Packet* pkt) override;
  void on_control(Packet* pkt) override { env_.pool->put(pkt); }
  bool has_work() const override { return next_psn_ < msg_of_psn_.size(); }
  void handle_event(int, Packet*) override {}

 private:
  const Route* route_;
  uint64_t next_psn_ = 0;
};

}  // namespace pdsim::packet

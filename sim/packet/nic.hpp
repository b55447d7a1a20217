#pragma once
// Nic: an endpoint's transmit scheduler and receive demultiplexer. When its port falls idle it
// serves active connections round robin (one packet each), so QPs sharing a NIC share its line
// rate; control packets (ACK, NAK, CNP) go straight onto the port's FIFO.
#include <vector>

#include "sim/packet/connection.hpp"

namespace pdsim::packet {

class Nic : public PacketSink, public Feeder, public EventHandler {
 public:
  Nic(EventList& events, Queue& port) : events_(events), port_(port) { port_.set_feeder(this); }
  void receive(Packet* pkt) override;
  Packet* pull() override;
  void handle_event(int kind, Packet* pkt) override;
  void activate(Connection* c);
  Queue& port() { return port_; }
  // RTT estimate (Jacobson/Karels) over the samples of all SRD contexts of this NIC: a context
  // with few samples of its own still meets the queues its siblings measured (cf. TCP's
  // per-route metrics cache), and in an all-to-all those differ per destination and in time.
  double srd_srtt_ps = 0, srd_rttvar_ps = 0;

 private:
  EventList& events_;
  Queue& port_;
  std::vector<Connection*> active_;
  size_t rr_ = 0;
  Picoseconds wake_at_ = -1;  // pending wake-up, -1 if none
};

}  // namespace pdsim::packet

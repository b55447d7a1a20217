#pragma once
// SRD (AWS Scalable Reliable Datagram) as published: each packet takes a fresh path (entropy)
// out of up to `srd_paths`, packets are delivered out of order and a message completes when all
// its packets have arrived, every packet is acknowledged selectively, a lost packet is resent
// alone after a µs-scale timeout, and the sender steers away from paths that marked ECN or
// lost a packet (they are skipped for `srd_path_penalty_ps`). A window of in-flight packets
// bounds the sender; the timeout adapts to the measured RTT above a configured minimum.
#include <deque>
#include <utility>
#include <vector>

#include "sim/packet/connection.hpp"

namespace pdsim::packet {

class SrdConnection : public Connection {
 public:
  SrdConnection(const TransportEnv& env, Nic* src, Nic* dst, int src_ep, int dst_ep, uint64_t id);
  void post(Message m) override;
  Packet* next_packet(Picoseconds now, Picoseconds* wake_ps) override;
  void on_data(Packet* pkt) override;
  void on_control(Packet* pkt) override;
  bool has_work() const override;
  void handle_event(int kind, Packet* pkt) override;

 private:
  uint32_t pick_path(Picoseconds now);
  const Route* data_route(uint32_t path);
  const Route* ack_route(uint32_t path);
  Packet* send(uint64_t psn, Picoseconds now, bool retransmit);

  std::vector<const Route*> data_routes_, ack_routes_;
  std::vector<Picoseconds> penalised_until_;
  uint32_t next_path_ = 0;
  uint64_t next_new_psn_ = 0;
  std::vector<uint8_t> acked_, received_;
  std::deque<uint64_t> resend_;
  struct Deadline {
    uint64_t psn;
    Picoseconds at;
    uint32_t path;
  };
  std::deque<Deadline> deadlines_;  // in send order, so sorted by time
  int64_t inflight_ = 0;  // distinct PSNs sent and not yet acknowledged
  bool timer_pending_ = false;
  // Retransmit timeout: Jacobson/Karels estimate from ACKs of first transmissions (Karn),
  // never below the configured minimum, so queueing delay does not trigger spurious resends.
  Picoseconds rto_ps() const;
  double srtt_ps_ = 0, rttvar_ps_ = 0;
};

}  // namespace pdsim::packet

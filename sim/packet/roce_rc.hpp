#pragma once
// RoCE v2 Reliable Connection: one entropy (UDP source port) per QP, hence one ECMP path; PSNs
// delivered strictly in order; the receiver NAKs the first gap once and drops out-of-order
// packets, the sender goes back N to the NAKed PSN; with no progress for the local-ACK timeout
// (4.096 µs × 2^t) it resends from the oldest unacknowledged PSN, and after `rc_retry_count`
// timeouts in a row the QP fails. DCQCN (optional): the receiver answers CE-marked packets with
// at most one CNP per interval; the sender cuts its rate by α/2 per CNP and recovers through
// fast recovery, additive and hyper increase on a timer.
#include <vector>

#include "sim/packet/connection.hpp"

namespace pdsim::packet {

class RcConnection : public Connection {
 public:
  RcConnection(const TransportEnv& env, Nic* src, Nic* dst, int src_ep, int dst_ep, uint64_t id,
               double line_gbps);
  void post(Message m) override;
  Packet* next_packet(Picoseconds now, Picoseconds* wake_ps) override;
  void on_data(Packet* pkt) override;
  void on_control(Packet* pkt) override;
  bool has_work() const override { return !failed_ && snd_nxt_ < msg_of_psn_.size(); }
  void handle_event(int kind, Packet* pkt) override;
  double rate_gbps() const { return rate_gbps_; }

 private:
  enum Kind { kTimeout = 0, kAlpha = 1, kIncrease = 2 };
  Packet* control(PacketType type, uint64_t psn);
  void on_cnp();
  void arm_timer();

  const Route* route_;
  const Route* reverse_;
  // Sender.
  uint64_t snd_una_ = 0, snd_nxt_ = 0;
  Picoseconds last_progress_ = 0;
  int retries_ = 0;
  bool timer_pending_ = false;
  bool failed_ = false;
  Picoseconds next_send_ps_ = 0;
  // Receiver.
  uint64_t expected_ = 0;
  bool nak_outstanding_ = false;
  Picoseconds last_cnp_ps_ = -1;
  // DCQCN reaction point.
  double line_gbps_, rate_gbps_, target_gbps_;
  double alpha_ = 1.0;
  bool cnp_in_period_ = false;
  int increase_stage_ = 0;
  bool alpha_timer_ = false, increase_timer_ = false;
};

}  // namespace pdsim::packet

#pragma once
// SRD (AWS Scalable Reliable Datagram, Shalev et al., IEEE Micro 40(6), 2020): each packet takes
// a fresh path (entropy) out of up to `srd_paths`, packets are delivered out of order and a
// message completes when all its packets have arrived, every packet is acknowledged
// selectively, and a lost packet is resent alone after a µs-scale timeout.
//
// Congestion control (the paper describes it only qualitatively: per-connection rate and
// in-flight limiting driven by ACK timing and RTT, steering away from congested paths; its
// constants are not published, so ours are documented assumptions, see README):
//   - one window of in-flight packets per connection (= per destination), at most and
//     initially `srd_window_packets`;
//   - delay-based: each ACK of a first transmission gives an RTT sample; below the target
//     (lowest RTT seen + `srd_queue_allowance_ps`) the window grows by `srd_ai_packets` per
//     RTT, above it shrinks by β·(rtt − target)/rtt, at most `srd_max_mdf` and once per RTT
//     (the Swift rule, Kumar et al., SIGCOMM 2020); a timeout shrinks it by `srd_max_mdf`;
//   - path steering: a path whose ACK echoes an ECN mark or whose RTT sample exceeded the
//     target is skipped for `srd_path_penalty_ps`; a path whose packet timed out is replaced
//     by a fresh entropy value (a new hashed route), so a failed link is left after one loss;
//   - retransmit timeout: srtt + 4·rttvar (Jacobson/Karels over first transmissions only,
//     Karn), twice the latest sample, or the same estimate over all contexts of the NIC,
//     whichever is largest, never below `srd_min_rto_ps`; before the first sample
//     `srd_rto_ps` or the NIC-wide estimate if larger; a deadline is
//     re-evaluated against the current estimate when it falls due, so a queue that built up
//     after a packet was sent does not make its resend spurious.
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

  double window_packets() const { return cwnd_; }
  Picoseconds rto_ps() const;

 private:
  uint32_t pick_path(Picoseconds now);
  const Route* data_route(uint32_t path);
  const Route* ack_route(uint32_t path);
  Packet* send(uint64_t psn, Picoseconds now, bool retransmit);
  void on_rtt_sample(Picoseconds rtt, uint32_t path, Picoseconds now);
  void decrease(double factor, Picoseconds now);
  void path_lost(uint32_t path);
  uint64_t entropy(uint32_t path) const;

  std::vector<const Route*> data_routes_, ack_routes_;
  std::vector<Picoseconds> penalised_until_;
  std::vector<uint32_t> path_salt_;  // entropy draws per path slot (one more per loss)
  uint32_t next_path_ = 0;
  uint64_t next_new_psn_ = 0;
  std::vector<uint8_t> acked_, received_;
  std::deque<uint64_t> resend_;
  struct Deadline {
    uint64_t psn;
    Picoseconds sent;
    uint32_t path;
  };
  std::deque<Deadline> deadlines_;  // in send order
  int64_t inflight_ = 0;            // distinct PSNs sent and not yet acknowledged
  bool timer_pending_ = false;
  Picoseconds timer_at_ = 0;
  // Congestion state.
  double cwnd_ = 1;
  Picoseconds min_rtt_ps_ = 0, last_rtt_ps_ = 0;
  Picoseconds last_decrease_ps_ = -1;
  double srtt_ps_ = 0, rttvar_ps_ = 0;
};

}  // namespace pdsim::packet

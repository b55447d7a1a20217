#pragma once
// Connection: one queue pair (RoCE RC), SRD context or NVLink stream between two endpoints.
// The sender side hands packets to its NIC when the NIC pulls (next_packet); the receiver side
// gets data packets (on_data) and the sender gets control packets back (on_control). Messages
// are posted in order; each completes when its last byte has been delivered at the receiver.
#include <cstdint>
#include <vector>

#include "sim/packet/event_list.hpp"
#include "sim/packet/packet.hpp"
#include "sim/packet/topology.hpp"

namespace pdsim::packet {

struct Message;
class MessageListener {
 public:
  virtual ~MessageListener() = default;
  virtual void on_delivered(const Message& m, Picoseconds at) = 0;
};

struct Message {
  int64_t bytes = 0;
  Picoseconds posted_ps = 0;  // when the application posted it
  Picoseconds ready_ps = 0;   // after the sender's issue delay (CPU proxy)
  MessageListener* owner = nullptr;
  int64_t tag = 0;  // owner's own identifier
  uint64_t first_psn = 0, end_psn = 0;
  int64_t packets_left = 0;  // receiver side
};

struct TransportParams {
  int64_t mtu_bytes = 4096;   // payload per packet
  int64_t header_bytes = 82;  // per packet on the wire, framing included
  // SRD (see srd.hpp for the congestion control these parameterise)
  int srd_paths = 64;
  Picoseconds srd_rto_ps = 0;           // retransmit timeout before the first RTT sample
  Picoseconds srd_min_rto_ps = 0;       // floor of the RTT-derived timeout
  int64_t srd_window_packets = 0;       // largest (and initial) window
  Picoseconds srd_path_penalty_ps = 0;  // a path that marked, lost or ran late is skipped this long
  Picoseconds srd_base_rtt_ps = 0;      // unloaded RTT before samples exist
  Picoseconds srd_queue_allowance_ps = 0;  // target RTT = lowest RTT seen + this
  double srd_ai_packets = 1;               // additive increase per RTT below target
  double srd_beta = 0.8;                   // decrease gain on the excess delay
  double srd_max_mdf = 0.5;                // largest multiplicative decrease per RTT
  // RoCE RC
  int rc_timeout_exponent = 20;
  int rc_retry_count = 7;
  bool dcqcn = false;
  Picoseconds dcqcn_cnp_interval_ps = 0, dcqcn_rate_period_ps = 0, dcqcn_alpha_period_ps = 0;
  double dcqcn_g = 1.0 / 256, dcqcn_ai_gbps = 0, dcqcn_hai_gbps = 0;
  int dcqcn_fast_recovery_stages = 5;
  Picoseconds rc_timeout_ps() const { return us_to_ps(4.096) << rc_timeout_exponent; }
  bool operator==(const TransportParams&) const = default;
};

struct TransportCounters {
  uint64_t data_packets = 0;
  uint64_t retransmissions = 0;
  uint64_t spurious_retransmissions = 0;  // resent packets whose first copy also arrived
  uint64_t timeouts = 0;
  uint64_t naks = 0;
  uint64_t cnps = 0;
  uint64_t failed_connections = 0;  // RC retry count exceeded
};

class Nic;
struct TransportEnv {
  EventList* events;
  PacketPool* pool;
  Topology* topo;
  const TransportParams* params;
  TransportCounters* counters;
};

class Connection : public EventHandler {
 public:
  Connection(const TransportEnv& env, Nic* src, Nic* dst, int src_ep, int dst_ep, uint64_t id)
      : env_(env), src_(src), dst_(dst), src_ep_(src_ep), dst_ep_(dst_ep), id_(id) {}
  // Queues a message (ready_ps already includes the issue delay).
  virtual void post(Message m) = 0;
  // Sender: the next packet to put on the wire now, or nullptr; sets *wake_ps when the next
  // packet becomes sendable at a known later time (pacing, issue delay).
  virtual Packet* next_packet(Picoseconds now, Picoseconds* wake_ps) = 0;
  virtual void on_data(Packet* pkt) = 0;
  virtual void on_control(Packet* pkt) = 0;
  virtual bool has_work() const = 0;

 protected:
  Packet* make_packet(uint64_t psn, int64_t payload);
  void deliver(Message& m);
  void activate();  // tells the source NIC this connection may send

  TransportEnv env_;
  Nic* src_;
  Nic* dst_;
  int src_ep_, dst_ep_;
  uint64_t id_;
  // Shared by both sides (the simulator sees both ends): messages by post order, and for every
  // PSN its message and payload.
  void append_packets(Message& m);
  std::vector<Message> messages_;
  std::vector<uint32_t> msg_of_psn_;
  std::vector<uint32_t> payload_of_psn_;
  size_t next_msg_ = 0;  // sender: first message with unsent packets
};

}  // namespace pdsim::packet

#pragma once
// Queue: one egress port and the link behind it (serialisation at the port's rate, then a fixed
// propagation delay to the next sink on the packet's route). Switch ports share their switch's
// buffer, mark ECN (Kmin/Kmax/Pmax on the instantaneous queue), drop tail when lossy, and under
// PFC count the bytes each upstream link has parked in this switch, pausing that link (after
// the link delay) above XOFF and resuming it below XON. NIC ports have no buffer limit; they
// pull their next packet from a Feeder (the NIC's scheduler) whenever the link falls idle.
#include <cstdint>

#include "sim/core/rng.hpp"
#include "sim/packet/event_list.hpp"
#include "sim/packet/packet.hpp"

namespace pdsim::packet {

struct SwitchParams {
  int64_t buffer_bytes = 0;       // shared by all ports of a switch
  int64_t queue_limit_bytes = 0;  // per egress queue; 0 = only the shared buffer limits
  bool ecn = false;
  int64_t ecn_kmin_bytes = 0, ecn_kmax_bytes = 0;
  double ecn_pmax = 0;
  bool pfc = false;
  int64_t pfc_xoff_bytes = 0, pfc_xon_bytes = 0;  // per ingress link (static thresholds)
  // Dynamic threshold (pfc_alpha > 0): an ingress pauses its upstream once its bytes reach
  // pfc_alpha × the free shared buffer and resumes pfc_resume_offset_bytes below that.
  double pfc_alpha = 0;
  int64_t pfc_resume_offset_bytes = 0;
  int64_t pfc_headroom_bytes = 0;  // above XOFF before a lossless overflow
  int64_t pause_quanta = 65535;    // quanta of 512 bit-times per PAUSE frame
  bool operator==(const SwitchParams&) const = default;
};

struct SharedBuffer {
  int64_t capacity_bytes = 0;
  int64_t used_bytes = 0;
};

// Network-wide counters every queue adds to.
struct FabricCounters {
  uint64_t drops = 0;
  uint64_t ecn_marks = 0;
  uint64_t pause_frames = 0;
  uint64_t headroom_overflows = 0;  // lossless ingress above XOFF + headroom
};

class Feeder {
 public:
  virtual ~Feeder() = default;
  virtual Packet* pull() = 0;  // next packet to send now, or nullptr
};

// Integer picoseconds to serialise `bytes` at `rate_bps` (rounded up). bytes × 8e12 overflows
// 64 bits above ~1.15 MB (a PAUSE frame's 65535 quanta are 4.2 MB), so large sizes use 128 bits.
inline Picoseconds serialisation_ps(int64_t bytes, int64_t rate_bps) {
  constexpr int64_t kPsBitsPerS = 8'000'000'000'000;
  if (bytes <= (INT64_MAX - rate_bps) / kPsBitsPerS)
    return (bytes * kPsBitsPerS + rate_bps - 1) / rate_bps;
  __extension__ using Wide = __int128;
  return static_cast<Picoseconds>((static_cast<Wide>(bytes) * kPsBitsPerS + rate_bps - 1) /
                                  rate_bps);
}

struct QueueEnv {
  EventList* events;
  PacketPool* pool;
  FabricCounters* counters;
  Rng* rng;
};

class Queue : public PacketSink, public EventHandler {
 public:
  // `buffer`/`params` are null for a NIC port.
  Queue(const QueueEnv& env, double rate_gbps, Picoseconds latency_ps, SharedBuffer* buffer,
        const SwitchParams* params);

  void receive(Packet* pkt) override;
  void handle_event(int kind, Packet* pkt) override;
  void set_feeder(Feeder* f) { feeder_ = f; }
  void kick();  // the feeder has something to send
  void set_failed(bool failed);

  int64_t rate_bps() const { return rate_bps_; }
  Picoseconds latency_ps() const { return latency_ps_; }
  bool idle() const { return !busy_ && head_ == nullptr; }

  // Statistics.
  uint64_t tx_bytes = 0;
  int64_t max_queue_bytes = 0;
  Picoseconds paused_ps = 0;
  uint64_t drops = 0;

 private:
  enum Kind { kDepart = 0, kDeliver = 1, kPauseOn = 2, kResume = 3, kPauseExpireBase = 16 };
  void drop(Packet* pkt);
  void start_next();
  void pause_upstream(Queue* up);
  void release_upstream(Queue* up, int64_t bytes);
  Picoseconds pause_duration_ps() const;
  int64_t pfc_xoff_now() const;

  QueueEnv env_;
  int64_t rate_bps_;
  Picoseconds latency_ps_;
  SharedBuffer* buffer_;
  const SwitchParams* params_;
  Feeder* feeder_ = nullptr;
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  int64_t queue_bytes_ = 0;
  bool busy_ = false;
  bool failed_ = false;
  // PFC state of this link as seen by the switch it feeds (ingress accounting) ...
  int64_t ingress_bytes_ = 0;
  bool pause_requested_ = false;
  // ... and this port's own paused state.
  bool paused_ = false;
  Picoseconds pause_start_ = 0;
  int pause_epoch_ = 0;
};

}  // namespace pdsim::packet

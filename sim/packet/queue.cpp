#include "sim/packet/queue.hpp"

#include <cmath>

namespace pdsim::packet {

Queue::Queue(const QueueEnv& env, double rate_gbps, Picoseconds latency_ps, SharedBuffer* buffer,
             const SwitchParams* params)
    : env_(env),
      rate_bps_(std::llround(rate_gbps * 1e9)),
      latency_ps_(latency_ps),
      buffer_(buffer),
      params_(params) {}

void Queue::drop(Packet* pkt) {
  ++drops;
  ++env_.counters->drops;
  env_.pool->put(pkt);
}

void Queue::receive(Packet* pkt) {
  if (failed_) return drop(pkt);
  const int64_t size = pkt->wire_bytes;
  if (buffer_) {
    const SwitchParams& p = *params_;
    if (!p.pfc) {
      const bool over_queue = p.queue_limit_bytes > 0 && queue_bytes_ + size > p.queue_limit_bytes;
      if (over_queue || buffer_->used_bytes + size > buffer_->capacity_bytes) return drop(pkt);
    }
    if (p.ecn && !pkt->ecn && pkt->type == PacketType::data && queue_bytes_ > p.ecn_kmin_bytes) {
      const double frac = queue_bytes_ >= p.ecn_kmax_bytes
                              ? 1.0
                              : p.ecn_pmax * static_cast<double>(queue_bytes_ - p.ecn_kmin_bytes) /
                                    static_cast<double>(p.ecn_kmax_bytes - p.ecn_kmin_bytes);
      if (frac >= 1.0 || env_.rng->uniform01() < frac) {
        pkt->ecn = true;
        ++env_.counters->ecn_marks;
      }
    }
    buffer_->used_bytes += size;
    if (p.pfc && pkt->prev) {
      Queue* up = pkt->prev;
      up->ingress_bytes_ += size;
      const int64_t xoff = pfc_xoff_now();
      if (up->ingress_bytes_ > xoff + p.pfc_headroom_bytes) ++env_.counters->headroom_overflows;
      if (!up->pause_requested_ && up->ingress_bytes_ >= xoff) pause_upstream(up);
    }
  }
  queue_bytes_ += size;
  if (queue_bytes_ > max_queue_bytes) max_queue_bytes = queue_bytes_;
  pkt->next = nullptr;
  if (tail_)
    tail_->next = pkt;
  else
    head_ = pkt;
  tail_ = pkt;
  if (!busy_ && !paused_) start_next();
}

void Queue::pause_upstream(Queue* up) {
  up->pause_requested_ = true;
  ++env_.counters->pause_frames;
  // The PAUSE frame crosses the link back to the upstream port.
  env_.events->schedule_in(up->latency_ps_, up, kPauseOn);
}

int64_t Queue::pfc_xoff_now() const {
  if (params_->pfc_alpha <= 0) return params_->pfc_xoff_bytes;
  return static_cast<int64_t>(params_->pfc_alpha *
                              static_cast<double>(buffer_->capacity_bytes - buffer_->used_bytes));
}

void Queue::release_upstream(Queue* up, int64_t bytes) {
  up->ingress_bytes_ -= bytes;
  const int64_t xon = params_->pfc_alpha > 0 ? pfc_xoff_now() - params_->pfc_resume_offset_bytes
                                             : params_->pfc_xon_bytes;
  if (up->pause_requested_ && up->ingress_bytes_ <= xon) {
    up->pause_requested_ = false;
    env_.events->schedule_in(up->latency_ps_, up, kResume);
  }
}

Picoseconds Queue::pause_duration_ps() const {
  // One quantum is 512 bit-times at this port's rate.
  const int64_t quanta = params_ ? params_->pause_quanta : 65535;
  return serialisation_ps(quanta * 64, rate_bps_);
}

void Queue::kick() {
  if (!busy_ && !paused_ && !failed_) start_next();
}

void Queue::start_next() {
  Packet* pkt = head_;
  if (pkt) {
    head_ = pkt->next;
    if (!head_) tail_ = nullptr;
  } else if (feeder_) {
    pkt = feeder_->pull();
    if (!pkt) return;
    queue_bytes_ += pkt->wire_bytes;
  } else {
    return;
  }
  busy_ = true;
  env_.events->schedule_in(serialisation_ps(pkt->wire_bytes, rate_bps_), this, kDepart, pkt);
}

void Queue::set_failed(bool failed) {
  failed_ = failed;
  if (!failed) return kick();
  while (head_) {  // a failed link loses what was queued for it
    Packet* p = head_;
    head_ = p->next;
    queue_bytes_ -= p->wire_bytes;
    if (buffer_) {
      buffer_->used_bytes -= p->wire_bytes;
      if (params_->pfc && p->prev) release_upstream(p->prev, p->wire_bytes);
    }
    drop(p);
  }
  tail_ = nullptr;
}

void Queue::handle_event(int kind, Packet* pkt) {
  switch (kind) {
    case kDepart: {
      const int64_t size = pkt->wire_bytes;
      tx_bytes += static_cast<uint64_t>(size);
      queue_bytes_ -= size;
      if (buffer_) {
        buffer_->used_bytes -= size;
        if (params_->pfc && pkt->prev) release_upstream(pkt->prev, size);
      }
      pkt->prev = this;
      busy_ = false;
      if (failed_)
        drop(pkt);
      else
        env_.events->schedule_in(latency_ps_, this, kDeliver, pkt);
      if (!paused_ && !failed_) start_next();
      return;
    }
    case kDeliver:
      if (failed_) return drop(pkt);
      return forward(pkt);
    case kPauseOn:
      if (!paused_) {
        paused_ = true;
        pause_start_ = env_.events->now();
      }
      env_.events->schedule_in(pause_duration_ps(), this, kPauseExpireBase + ++pause_epoch_);
      return;
    case kResume:
      if (!paused_) return;
      paused_ = false;
      paused_ps += env_.events->now() - pause_start_;
      if (!busy_) start_next();
      return;
    default:
      if (kind - kPauseExpireBase != pause_epoch_ || !paused_) return;
      if (pause_requested_) {  // the downstream switch refreshes a pause it still needs
        env_.events->schedule_in(pause_duration_ps(), this, kPauseExpireBase + ++pause_epoch_);
        return;
      }
      paused_ = false;
      paused_ps += env_.events->now() - pause_start_;
      if (!busy_) start_next();
  }
}

}  // namespace pdsim::packet

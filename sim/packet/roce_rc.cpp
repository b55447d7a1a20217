#include "sim/packet/roce_rc.hpp"

#include <algorithm>
#include <cmath>

#include "sim/packet/nic.hpp"

namespace pdsim::packet {

RcConnection::RcConnection(const TransportEnv& env, Nic* src, Nic* dst, int src_ep, int dst_ep,
                           uint64_t id, double line_gbps)
    : Connection(env, src, dst, src_ep, dst_ep, id),
      route_(env.topo->route(src_ep, dst_ep, id)),
      reverse_(env.topo->route(dst_ep, src_ep, id ^ 0x8000)),
      line_gbps_(line_gbps),
      rate_gbps_(line_gbps),
      target_gbps_(line_gbps) {}

void RcConnection::post(Message m) {
  append_packets(m);
  activate();
}

void RcConnection::arm_timer() {
  if (timer_pending_) return;
  timer_pending_ = true;
  env_.events->schedule(last_progress_ + env_.params->rc_timeout_ps(), this, kTimeout);
}

Packet* RcConnection::next_packet(Picoseconds now, Picoseconds* wake_ps) {
  if (failed_ || snd_nxt_ >= msg_of_psn_.size()) return nullptr;
  const Message& m = messages_[msg_of_psn_[snd_nxt_]];
  const Picoseconds ready = std::max(m.ready_ps, next_send_ps_);
  if (ready > now) {
    *wake_ps = ready;
    return nullptr;
  }
  if (snd_una_ == snd_nxt_) last_progress_ = now;  // the ACK clock starts with the first packet
  const uint64_t psn = snd_nxt_++;
  Packet* p = make_packet(psn, payload_of_psn_[psn]);
  p->route = route_;
  if (rate_gbps_ < line_gbps_) {  // DCQCN pacing
    next_send_ps_ = now + static_cast<Picoseconds>(
                              std::llround(static_cast<double>(p->wire_bytes) * 8e3 / rate_gbps_));
  }
  arm_timer();
  return p;
}

Packet* RcConnection::control(PacketType type, uint64_t psn) {
  Packet* p = env_.pool->get();
  p->type = type;
  p->conn = this;
  p->seq = psn;
  p->wire_bytes = static_cast<uint32_t>(env_.params->header_bytes);
  p->route = reverse_;
  return p;
}

void RcConnection::on_data(Packet* pkt) {
  const uint64_t psn = pkt->seq;
  const Picoseconds now = env_.events->now();
  if (pkt->ecn && env_.params->dcqcn &&
      (last_cnp_ps_ < 0 || now - last_cnp_ps_ >= env_.params->dcqcn_cnp_interval_ps)) {
    last_cnp_ps_ = now;
    ++env_.counters->cnps;
    forward(control(PacketType::cnp, psn));
  }
  if (psn == expected_) {
    ++expected_;
    nak_outstanding_ = false;
    Message& m = messages_[msg_of_psn_[psn]];
    if (--m.packets_left == 0) deliver(m);
    pkt->type = PacketType::ack;
  } else if (psn > expected_) {
    env_.pool->put(pkt);
    if (nak_outstanding_) return;
    nak_outstanding_ = true;
    ++env_.counters->naks;
    return forward(control(PacketType::nak, expected_));
  } else {
    pkt->type = PacketType::ack;  // duplicate: re-acknowledge what we have
  }
  pkt->seq = expected_ - 1;
  pkt->ecn = false;
  pkt->wire_bytes = static_cast<uint32_t>(env_.params->header_bytes);
  pkt->payload_bytes = 0;
  pkt->route = reverse_;
  pkt->hop = 0;
  pkt->prev = nullptr;
  forward(pkt);
}

void RcConnection::on_control(Packet* pkt) {
  const Picoseconds now = env_.events->now();
  switch (pkt->type) {
    case PacketType::ack:
      if (pkt->seq + 1 > snd_una_) {
        snd_una_ = pkt->seq + 1;
        last_progress_ = now;
        retries_ = 0;
      }
      break;
    case PacketType::nak:
      if (pkt->seq >= snd_una_) {
        snd_una_ = pkt->seq;
        last_progress_ = now;
        if (snd_nxt_ > pkt->seq) env_.counters->retransmissions += snd_nxt_ - pkt->seq;
        snd_nxt_ = pkt->seq;  // go back N
        activate();
      }
      break;
    case PacketType::cnp:
      on_cnp();
      break;
    default:
      break;
  }
  env_.pool->put(pkt);
}

void RcConnection::on_cnp() {
  const TransportParams& p = *env_.params;
  target_gbps_ = rate_gbps_;
  rate_gbps_ = std::max(rate_gbps_ * (1 - alpha_ / 2), line_gbps_ / 1000);
  alpha_ = (1 - p.dcqcn_g) * alpha_ + p.dcqcn_g;
  cnp_in_period_ = true;
  increase_stage_ = 0;
  if (!alpha_timer_) {
    alpha_timer_ = true;
    env_.events->schedule_in(p.dcqcn_alpha_period_ps, this, kAlpha);
  }
  if (!increase_timer_) {
    increase_timer_ = true;
    env_.events->schedule_in(p.dcqcn_rate_period_ps, this, kIncrease);
  }
}

void RcConnection::handle_event(int kind, Packet*) {
  const TransportParams& p = *env_.params;
  const Picoseconds now = env_.events->now();
  if (kind == kTimeout) {
    timer_pending_ = false;
    if (failed_ || snd_una_ >= snd_nxt_) return;  // nothing outstanding
    if (now < last_progress_ + p.rc_timeout_ps()) return arm_timer();
    ++env_.counters->timeouts;
    if (++retries_ > p.rc_retry_count) {
      failed_ = true;
      ++env_.counters->failed_connections;
      return;
    }
    env_.counters->retransmissions += snd_nxt_ - snd_una_;
    snd_nxt_ = snd_una_;
    last_progress_ = now;
    activate();
    return;
  }
  if (kind == kAlpha) {
    if (!cnp_in_period_) alpha_ *= 1 - p.dcqcn_g;
    cnp_in_period_ = false;
    alpha_timer_ = rate_gbps_ < line_gbps_;  // α only matters while the rate is cut
  } else {
    const int f = p.dcqcn_fast_recovery_stages;
    ++increase_stage_;
    if (increase_stage_ > 2 * f)
      target_gbps_ += p.dcqcn_hai_gbps;
    else if (increase_stage_ > f)
      target_gbps_ += p.dcqcn_ai_gbps;
    target_gbps_ = std::min(target_gbps_, line_gbps_);
    rate_gbps_ = std::min((rate_gbps_ + target_gbps_) / 2, line_gbps_);
    if (rate_gbps_ >= line_gbps_ * (1 - 1e-9)) {
      rate_gbps_ = line_gbps_;
    }
    increase_timer_ = rate_gbps_ < line_gbps_;  // recovered: stop until the next CNP
  }
  if (!(kind == kAlpha ? alpha_timer_ : increase_timer_)) return;
  env_.events->schedule_in(kind == kAlpha ? p.dcqcn_alpha_period_ps : p.dcqcn_rate_period_ps, this,
                           kind);
}

}  // namespace pdsim::packet

#include "sim/packet/srd.hpp"

#include <algorithm>
#include <cmath>

#include "sim/packet/nic.hpp"

namespace pdsim::packet {

SrdConnection::SrdConnection(const TransportEnv& env, Nic* src, Nic* dst, int src_ep, int dst_ep,
                             uint64_t id)
    : Connection(env, src, dst, src_ep, dst_ep, id) {
  const auto n = static_cast<size_t>(env.params->srd_paths);
  data_routes_.assign(n, nullptr);
  ack_routes_.assign(n, nullptr);
  penalised_until_.assign(n, 0);
  path_salt_.assign(n, 0);
  next_path_ = static_cast<uint32_t>(id % n);
  cwnd_ = static_cast<double>(std::max<int64_t>(1, env.params->srd_window_packets));
  min_rtt_ps_ = env.params->srd_base_rtt_ps;
}

const Route* SrdConnection::data_route(uint32_t path) {
  auto& r = data_routes_[path];
  if (!r) r = env_.topo->route(src_ep_, dst_ep_, entropy(path));
  return r;
}

const Route* SrdConnection::ack_route(uint32_t path) {
  auto& r = ack_routes_[path];
  if (!r) r = env_.topo->route(dst_ep_, src_ep_, entropy(path) ^ 0x8000);
  return r;
}

void SrdConnection::post(Message m) {
  append_packets(m);
  acked_.resize(msg_of_psn_.size(), 0);
  received_.resize(msg_of_psn_.size(), 0);
  activate();
}

bool SrdConnection::has_work() const {
  return !resend_.empty() || next_new_psn_ < msg_of_psn_.size();
}

uint32_t SrdConnection::pick_path(Picoseconds now) {
  const auto n = static_cast<uint32_t>(penalised_until_.size());
  uint32_t best = next_path_ % n;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = (next_path_ + i) % n;
    if (penalised_until_[p] <= now) {
      best = p;
      break;
    }
    if (penalised_until_[p] < penalised_until_[best]) best = p;
  }
  next_path_ = best + 1;
  return best;
}

Packet* SrdConnection::send(uint64_t psn, Picoseconds now, bool retransmit) {
  Packet* p = make_packet(psn, payload_of_psn_[psn]);
  p->path = pick_path(now);
  p->route = data_route(p->path);
  p->retransmit = retransmit;
  if (!retransmit) ++inflight_;
  deadlines_.push_back({psn, now, p->path});
  if (!timer_pending_) {
    timer_pending_ = true;
    timer_at_ = now + rto_ps();
    env_.events->schedule(timer_at_, this);
  }
  return p;
}

Packet* SrdConnection::next_packet(Picoseconds now, Picoseconds* wake_ps) {
  while (!resend_.empty()) {
    const uint64_t psn = resend_.front();
    resend_.pop_front();
    if (!acked_[psn]) {
      ++env_.counters->retransmissions;
      return send(psn, now, true);
    }
  }
  // Resends do not count against the window: their PSNs already do.
  if (static_cast<double>(inflight_) + 1 > std::max(cwnd_, 1.0)) return nullptr;
  if (next_new_psn_ >= msg_of_psn_.size()) return nullptr;
  const Message& m = messages_[msg_of_psn_[next_new_psn_]];
  if (m.ready_ps > now) {
    *wake_ps = m.ready_ps;
    return nullptr;
  }
  return send(next_new_psn_++, now, false);
}

void SrdConnection::on_data(Packet* pkt) {
  const uint64_t psn = pkt->seq;
  if (!received_[psn]) {
    received_[psn] = 1;
    Message& m = messages_[msg_of_psn_[psn]];
    if (--m.packets_left == 0) deliver(m);
  } else {
    ++env_.counters->spurious_retransmissions;  // a resend whose other copy arrived too
  }
  // The data packet turns into its selective ACK, echoing any CE mark, on the reverse path.
  pkt->type = PacketType::ack;
  pkt->ecn_echo = pkt->ecn;
  pkt->ecn = false;
  pkt->wire_bytes = static_cast<uint32_t>(env_.params->header_bytes);
  pkt->payload_bytes = 0;
  pkt->route = ack_route(pkt->path);
  pkt->hop = 0;
  pkt->prev = nullptr;
  forward(pkt);
}

namespace {
void jacobson(double& srtt, double& rttvar, double rtt) {
  if (srtt == 0) {
    srtt = rtt;
    rttvar = rtt / 2;
  } else {
    rttvar = 0.75 * rttvar + 0.25 * std::abs(srtt - rtt);
    srtt = 0.875 * srtt + 0.125 * rtt;
  }
}
}  // namespace

Picoseconds SrdConnection::rto_ps() const {
  const auto nic_est = static_cast<Picoseconds>(src_->srd_srtt_ps + 4 * src_->srd_rttvar_ps);
  if (srtt_ps_ == 0) return std::max(env_.params->srd_rto_ps, nic_est);
  // Queues that are still building make later samples larger than srtt + 4·rttvar expects:
  // twice the latest sample covers a queue that at most doubles within one RTT.
  const auto est = static_cast<Picoseconds>(srtt_ps_ + 4 * rttvar_ps_);
  return std::max({env_.params->srd_min_rto_ps, est, 2 * last_rtt_ps_, nic_est});
}

void SrdConnection::decrease(double factor, Picoseconds now) {
  // At most once per RTT: the samples of one window all report the same queue.
  if (last_decrease_ps_ >= 0 && now - last_decrease_ps_ < static_cast<Picoseconds>(srtt_ps_))
    return;
  last_decrease_ps_ = now;
  cwnd_ = std::max(1.0, cwnd_ * factor);
}

void SrdConnection::on_rtt_sample(Picoseconds rtt_ps, uint32_t path, Picoseconds now) {
  const TransportParams& p = *env_.params;
  const auto rtt = static_cast<double>(rtt_ps);
  jacobson(srtt_ps_, rttvar_ps_, rtt);
  jacobson(src_->srd_srtt_ps, src_->srd_rttvar_ps, rtt);
  min_rtt_ps_ = std::min(min_rtt_ps_, rtt_ps);
  last_rtt_ps_ = rtt_ps;
  const Picoseconds target = min_rtt_ps_ + p.srd_queue_allowance_ps;
  if (rtt_ps <= target) {
    cwnd_ = std::min(cwnd_ + p.srd_ai_packets / cwnd_, static_cast<double>(p.srd_window_packets));
    return;
  }
  penalised_until_[path] = now + p.srd_path_penalty_ps;
  const double excess = static_cast<double>(rtt_ps - target) / rtt;
  decrease(std::max(1 - p.srd_beta * excess, 1 - p.srd_max_mdf), now);
}

void SrdConnection::on_control(Packet* pkt) {
  const uint64_t psn = pkt->seq;
  const Picoseconds now = env_.events->now();
  if (pkt->ecn_echo) penalised_until_[pkt->path] = now + env_.params->srd_path_penalty_ps;
  if (!acked_[psn]) {
    // Every copy carries its own send time, so a sample is never ambiguous (Karn's concern).
    on_rtt_sample(now - pkt->sent_at, pkt->path, now);
    acked_[psn] = 1;
    --inflight_;
    activate();
  }
  env_.pool->put(pkt);
}

uint64_t SrdConnection::entropy(uint32_t path) const {
  return (id_ << 16) ^ path ^ (static_cast<uint64_t>(path_salt_[path]) << 32);
}

void SrdConnection::path_lost(uint32_t path) {
  // The slot takes a fresh entropy value, hence a new ECMP-hashed route (packets already on
  // the old one keep it): a failed or overflowing link is left after one loss. One path slot
  // means single-path ECMP: the route stays pinned.
  if (path_salt_.size() < 2) return;
  ++path_salt_[path];
  data_routes_[path] = nullptr;
  ack_routes_[path] = nullptr;
}

void SrdConnection::handle_event(int, Packet*) {
  timer_pending_ = false;
  const Picoseconds now = env_.events->now();
  const Picoseconds rto = rto_ps();
  bool lost = false;
  while (!deadlines_.empty()) {
    const Deadline d = deadlines_.front();
    if (acked_[d.psn]) {
      deadlines_.pop_front();
      continue;
    }
    if (d.sent + rto > now) break;  // the estimate grew since it was sent: not late yet
    deadlines_.pop_front();
    ++env_.counters->timeouts;
    path_lost(d.path);
    resend_.push_back(d.psn);
    lost = true;
  }
  // A pinned route (one path slot) cannot move away from the loss, so the window must shrink.
  if (lost && path_salt_.size() < 2) decrease(1 - env_.params->srd_max_mdf, now);
  if (!deadlines_.empty()) {
    timer_pending_ = true;
    timer_at_ = deadlines_.front().sent + rto;
    env_.events->schedule(timer_at_, this);
  }
  if (lost) activate();
}

}  // namespace pdsim::packet

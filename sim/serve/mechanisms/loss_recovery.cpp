#include "sim/serve/mechanisms/loss_recovery.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/units.hpp"
#include "sim/packet/network.hpp"
#include "sim/serve/cost/cluster_fabric.hpp"

namespace pdsim {

double LossRecovery::drop_us(int64_t packets_after) const {
  if (lib.transport == "srd")
    return std::max(0.0, srd_rto_us + packet_us - static_cast<double>(packets_after) * packet_us);
  if (packets_after > 0) return rtt_us + 2 * packet_us;  // NAK, go back N
  return lib.ack_timeout_us() + packet_us;               // local-ACK timeout, resend
}

LossRecovery::Outage LossRecovery::outage(double down_us) const {
  Outage o;
  if (down_us <= 0) return o;
  if (lib.transport == "srd") {
    o.stall_us = srd_rto_us + packet_us;  // resent on another path
    return o;
  }
  const double t = lib.ack_timeout_us();
  const double k = std::ceil(down_us / t);  // the first retry at or after the path is back
  if (k > lib.retry_count) {
    o.failed = true;
    o.stall_us = (lib.retry_count + 1) * t;  // the last retry's timeout errors the QP
    return o;
  }
  o.stall_us = k * t + packet_us;
  return o;
}

std::string a2a_qp_library(const Deployment& d) {
  const std::string& chosen =
      d.scenario.tail.get<LinkErrorsSection>("link_errors").extra.a2a_library;
  if (!chosen.empty()) return chosen;
  if (d.fabric.transport == "srd") return "uccl-ep-efa";
  return d.scenario.fabric.a2a_backend == "ibgda" ? "nvshmem-ibgda" : "uccl-ep-rc";
}

LossRecovery a2a_loss_recovery(const Deployment& d) {
  LossRecovery r;
  r.lib = load_qp_library(a2a_qp_library(d), d.scenario.file, "tail.link_errors.a2a_library");
  if (r.lib.transport != d.fabric.transport)
    throw InputError(d.scenario.file, "tail.link_errors.a2a_library",
                     "a library on the fabric's transport '" + d.fabric.transport + "' ('" +
                         r.lib.name + "' uses '" + r.lib.transport + "')");
  const auto net = cluster_network(d);
  const packet::TransportParams& tp = net->transport_params();
  r.rtt_us = ps_to_us(net->base_rtt_ps());
  r.srd_rto_us = ps_to_us(tp.srd_min_rto_ps);
  r.packet_us =
      static_cast<double>(tp.mtu_bytes + tp.header_bytes) * 8 / (d.instance.nic_gbps * 1e3);
  return r;
}

A2ATraffic iteration_a2a_traffic(const Deployment& d, const std::vector<RankState>& ranks) {
  A2ATraffic t;
  const A2AConfig& c = d.a2a;
  if (c.ep_ranks <= c.gpus_per_node || d.model.num_moe_layers() == 0) return t;
  const double remote = 1.0 - static_cast<double>(c.gpus_per_node) / c.ep_ranks;
  const packet::TransportParams tp;  // RoCE v2 MTU and framing (used for SRD too)
  const double mtu = static_cast<double>(tp.mtu_bytes), hdr = static_cast<double>(tp.header_bytes);
  double verify = 0, draft = 0;  // tokens summed over ranks
  for (const auto& st : ranks) {
    verify += static_cast<double>(st.contexts.size()) * d.passes.query_tokens;
    draft += static_cast<double>(st.contexts.size());
  }
  const int spec = d.passes.speculative ? 1 : 0;
  const double verify_pairs = d.model.num_moe_layers() + spec;  // + draft-extend
  const double draft_pairs = spec * d.passes.draft_steps;
  // Every rank signals every remote expert in every phase, with or without tokens.
  const double signals_per_phase = static_cast<double>(c.ep_ranks) * c.num_experts * remote;
  for (A2APhase ph : {A2APhase::dispatch, A2APhase::combine}) {
    const double msg = a2a_message_bytes(c, ph);
    const double pk = std::ceil(msg / mtu);
    const double copies = (verify * verify_pairs + draft * draft_pairs) * c.top_k * remote;
    t.data_packets += copies * pk;
    t.data_bits += copies * (msg + pk * hdr) * 8;
    t.signal_packets += signals_per_phase * (verify_pairs + draft_pairs);
  }
  t.signal_bits = t.signal_packets * (hdr + 8) * 8;  // an 8-byte count / flag write
  return t;
}

}  // namespace pdsim

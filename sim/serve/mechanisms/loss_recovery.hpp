#pragma once
// What a lost packet on the decode all-to-all costs the phase it belongs to, by the transport of
// the library that owns the QPs (models/qp_library.hpp), and how many packets an iteration puts
// on the wire between nodes (the exposure to bit errors).
//
// RC (go-back-N, strict PSN order). The lost packet's send ends at time p (one MTU packet on the
// NIC). If another packet follows it on the QP, that one arrives out of sequence, the receiver
// NAKs, the NAK reaches the sender at 2p + RTT and the sender goes back N from the lost PSN: the
// stream restarts 2p + RTT late, so the phase ends RTT + 2p later. If the lost packet was the
// QP's last in the phase (the count / flag write that ends a DeepEP low-latency message stream),
// nothing triggers a NAK: the local-ACK timeout T = 4.096 µs × 2^t fires at p + T and the packet
// is resent: T + p. A path that is down for D: retries at T, 2T, ...; the first at or after D gets
// through (k·T + p), and needing more than the library's retry count errors the QP.
// SRD (EFA): packets may arrive in any order; only the lost packet is resent, on another path,
// after the retransmit timeout: rto + p, less the packets still to send behind it (they hide the
// resend). A path down is avoided after one timeout. The RTT and SRD timeout are the packet
// engine's (sim/packet/README.md: base RTT of the longest path; SRD timeout floor = base RTT +
// queue allowance).
#include <cstdint>
#include <vector>

#include "models/qp_library.hpp"
#include "sim/scenario/profiled_section.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/rank_state.hpp"

namespace pdsim {

// Scenario section tail.link_errors (registered in mechanism_link_errors.cpp): the bit error
// rate of the NIC-switch links, from a profile (default: NVIDIA's cable test bound) or inline.
struct LinkErrorParams {
  static constexpr const char* kMechanism = "link_errors";
  double ber = 0;  // post-FEC bit error rate
  template <class V>
  static void declare(V& v) {
    // The mechanism takes each drop as alone in its all-to-all phase (their delays add). A phase
    // carries ~2e8 bits, so at 1e-9 a phase sees ~0.2 drops and two in one phase are ~10 % as
    // likely as one: the approximation's limit (IEEE 802.3's post-FEC target is 1e-12).
    v.field(&LinkErrorParams::ber, "ber",
            {.help = "post-FEC bit error rate of the NIC-switch links (at most 1e-9: each drop is "
                     "modelled alone in its phase)",
             .min = 0,
             .max = 1e-9});
  }
};
struct LinkErrorExtra {
  std::string a2a_library;  // models/catalog/qp_library; "" = by backend and transport
  template <class V>
  static void declare(V& v) {
    v.field(&LinkErrorExtra::a2a_library, "a2a_library",
            {.help = "models/catalog/qp_library entry of the all-to-all's QPs; \"\" = "
                     "nvshmem-ibgda for ibgda, uccl-ep-rc for a CPU proxy on RC, uccl-ep-efa on "
                     "SRD"});
  }
};
using LinkErrorsSection = ProfiledSection<LinkErrorParams, LinkErrorExtra>;

struct LossRecovery {
  QpLibrary lib;
  double rtt_us = 0;     // unloaded RTT (MTU packet out, ACK back)
  double packet_us = 0;  // one MTU packet (with headers) on one NIC
  double srd_rto_us = 0;

  // Extra phase time for one lost packet followed by `packets_after` more on its QP.
  double drop_us(int64_t packets_after) const;
  struct Outage {
    double stall_us = 0;  // extra phase time (failed: until the QP errors)
    bool failed = false;  // rc: more timeouts than the retry count
  };
  Outage outage(double down_us) const;
};

// The decode all-to-all's library: `tail.link_errors.a2a_library` when given, else by backend and
// transport (ibgda → nvshmem-ibgda; a CPU proxy → uccl-ep-rc on RC, uccl-ep-efa on SRD).
std::string a2a_qp_library(const Deployment& d);
// The recovery of d's decode all-to-all (builds the cluster's packet fabric once for the RTT).
LossRecovery a2a_loss_recovery(const Deployment& d);

// Inter-node all-to-all traffic of one decode iteration (every dispatch and combine of its
// passes): data packets (one RDMA write per (token, expert) copy, DeepEP low-latency layout) and
// signal packets (one count / flag write per (rank, remote expert) and phase, each its QP's last
// packet in the phase), with their wire bits. Destinations are uniform over experts, so a copy
// leaves the node with probability 1 − gpus_per_node / ep_ranks.
struct A2ATraffic {
  double data_packets = 0, data_bits = 0;
  double signal_packets = 0, signal_bits = 0;
  double bits() const { return data_bits + signal_bits; }
};
A2ATraffic iteration_a2a_traffic(const Deployment& d, const std::vector<RankState>& ranks);

}  // namespace pdsim

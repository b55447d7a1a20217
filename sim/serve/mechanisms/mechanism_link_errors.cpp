// Tail mechanism `link_errors` (tail.link_errors; on: the cable BER bound of
// models/profiles/tail/link-ber-nvidia-cable.json): bit errors drop packets of the decode
// all-to-all, and each drop costs what the QP's transport needs to recover it (loss_recovery.hpp):
// on RC a NAK and go-back-N, or the local-ACK timeout when the lost packet was its QP's last in
// the phase (4.29 s with NVSHMEM's t = 20); on SRD a resend after the packet engine's timeout.
// The all-to-all is a barrier, so one stalled QP stalls the iteration on every rank.
// Drops per iteration are Poisson with mean BER × wire bits; a drop hits a signal packet (a QP's
// last) in proportion to the signal packets' share of the bits. Each drop is taken to fall in a
// different phase (their delays add; at BER ≤ 1e-12 two in one phase are ~1e-4 as likely).
// Draws come from the mechanism's own stream, so switching it on leaves other draws unchanged.
#include <algorithm>
#include <cmath>

#include "sim/serve/mechanisms/loss_recovery.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

// Poisson(mean) by inversion (means here are far below 1: one uniform per iteration).
int poisson(double mean, Rng& rng) {
  const double l = std::exp(-mean);
  int k = 0;
  double p = rng.uniform01();
  while (p > l) {
    ++k;
    p *= rng.uniform01();
  }
  return k;
}

class LinkErrors final : public TailMechanism {
 public:
  LinkErrors(const Deployment& d, uint64_t seed)
      : d_(d),
        rec_(a2a_loss_recovery(d)),
        ber_(d.scenario.tail.get<LinkErrorsSection>("link_errors").params.ber),
        rng_(Rng(seed).fork(0x6c696e6b)),  // "link"
        id_(mechanism_id("link_errors")) {}

  void apply(const IterationContext& c, ForwardTerms& t, MechanismTerms& m, Rng&) override {
    const A2ATraffic tr = iteration_a2a_traffic(d_, c.ranks);
    if (tr.bits() <= 0) return;
    const int drops = poisson(tr.bits() * ber_, rng_);
    double added = 0;
    for (int k = 0; k < drops; ++k) {
      const bool last = rng_.uniform01() < tr.signal_bits / tr.bits();
      // A data packet is followed on its QP by at least its stream's signal, and by up to the
      // mean data packets per stream.
      const auto per_stream =
          static_cast<int64_t>(std::ceil(tr.data_packets / std::max(1.0, tr.signal_packets)));
      added += rec_.drop_us(last ? 0 : rng_.uniform_int(1, std::max<int64_t>(1, per_stream)));
    }
    if (added <= 0) return;
    t.dispatch_us += added;
    m[id_] = added;
  }

 private:
  const Deployment& d_;
  LossRecovery rec_;
  double ber_;
  Rng rng_;
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::TailMechanismRegistry, "link_errors",
               "tail.link_errors (on: cable BER bound): bit errors drop all-to-all packets; RC "
               "recovers by NAK/go-back-N or the ACK timeout, SRD by a resend",
               [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
                 const auto& m = e.d.scenario.tail.get<pdsim::LinkErrorsSection>("link_errors");
                 if (!m.enabled || m.params.ber <= 0) return nullptr;
                 // Only the all-to-all's packets are modelled: without one (moe_a2a_backend
                 // none) the NCCL collectives' losses are out of scope, and nothing is added.
                 if (!e.d.decode_layout.moe_a2a) return nullptr;
                 return std::make_unique<pdsim::LinkErrors>(e.d, e.seed);
               })
PDSIM_CONFIG_SECTION_CUSTOM("tail", "link_errors", pdsim::LinkErrorsSection, true,
                            "link-ber-nvidia-cable",
                            "bit errors drop decode all-to-all packets at `ber`; RC recovers by "
                            "NAK + go-back-N or the local-ACK timeout, SRD by a resend. On: a "
                            "published bound exists (cable BER)")

// Tail mechanism `path_flap` (tail.path_flaps; off: no published flap duration): a NIC–switch
// link of a decode node flaps (Poisson, per link) and stays down for `down_ms`. RC keeps its one
// ECMP path: its QPs on that link retry at every local-ACK timeout until the link is back, and
// needing more retries than the library's retry count errors the QP — NVSHMEM treats that as
// fatal, so the run is reported as a predicted failure. SRD avoids the path after one resend
// timeout. Taken: the path stays down for the whole flap (no ECMP re-convergence around it).
#include <cmath>
#include <iomanip>
#include <locale>
#include <optional>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/serve/mechanisms/loss_recovery.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

// Scenario section tail.path_flaps: a flap rate and duration, from a profile or inline.
struct PathFlapParams {
  static constexpr const char* kMechanism = "path_flaps";
  double per_link_per_hour = 0;  // flaps of one NIC–switch link
  double down_ms = 0;            // how long the path stays down
  template <class V>
  static void declare(V& v) {
    v.field(&PathFlapParams::per_link_per_hour, "per_link_per_hour",
            {.help = "flaps of one NIC-switch link of a decode node", .unit = "1/h", .min = 0});
    v.field(&PathFlapParams::down_ms, "down_ms",
            {.help = "how long the path stays down", .unit = "ms", .min = 0});
  }
};
using PathFlapsSection = ProfiledSection<PathFlapParams>;

std::string g4(double v) {
  std::ostringstream o;
  o.imbue(std::locale::classic());
  o << std::setprecision(4) << v;
  return o.str();
}

class PathFlap final : public TailMechanism {
 public:
  PathFlap(const Deployment& d, uint64_t seed)
      : rec_(a2a_loss_recovery(d)),
        links_(d.scenario.decode.nodes_per_instance * d.a2a_nics),
        per_us_(params(d).per_link_per_hour / 3.6e9),
        down_us_(params(d).down_ms * 1e3),
        rng_(Rng(seed).fork(0x666c6170)),  // "flap"
        id_(mechanism_id("path_flap")) {}

  void apply(const IterationContext& c, ForwardTerms& t, MechanismTerms& m, Rng&) override {
    const double p = -std::expm1(-links_ * per_us_ * t.total_us());
    if (!rng_.bernoulli(p)) return;
    const LossRecovery::Outage o = rec_.outage(down_us_);
    t.dispatch_us += o.stall_us;
    m[id_] = o.stall_us;
    if (o.failed && !failure_.has_value())
      failure_ = PredictedFailure{
          "path_flap",
          "a NIC-switch link down for " + g4(down_us_ / 1e3) + " ms outlasts " +
              std::to_string(rec_.lib.retry_count) + " retries at the " +
              g4(rec_.lib.ack_timeout_us() / 1e3) + " ms local-ACK timeout of " + rec_.lib.name +
              ": the QP errors (IBV_WC_RETRY_EXC_ERR); " + rec_.lib.on_qp_error,
          c.now_s, o.stall_us * 1e-6};
  }
  const PredictedFailure* failure() const override { return failure_ ? &*failure_ : nullptr; }

 private:
  static const PathFlapParams& params(const Deployment& d) {
    return d.scenario.tail.get<PathFlapsSection>("path_flaps").params;
  }
  LossRecovery rec_;
  double links_, per_us_, down_us_;
  Rng rng_;
  MechanismId id_;
  std::optional<PredictedFailure> failure_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::TailMechanismRegistry, "path_flap",
               "tail.path_flaps (off: no published flap duration): a link of the all-to-all goes "
               "down; RC retries on its one path or fails, SRD reroutes",
               [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
                 if (!e.d.scenario.tail.get<pdsim::PathFlapsSection>("path_flaps").enabled)
                   return nullptr;
                 if (e.d.model.is_moe() && !e.d.decode_layout.moe_a2a)
                   throw pdsim::InputError(
                       e.d.scenario.file, "tail.path_flaps.enabled",
                       "false with decode.moe_a2a_backend none: a flap is modelled on the decode "
                       "all-to-all's links, and there is none");
                 return std::make_unique<pdsim::PathFlap>(e.d, e.seed);
               })
PDSIM_CONFIG_SECTION_CUSTOM("tail", "path_flaps", pdsim::PathFlapsSection, false, "",
                            "a NIC-switch link of a decode node goes down: RC retries at each "
                            "ACK timeout on its one path (more than the retry count is a "
                            "predicted failure), SRD reroutes. Off: no published flap duration")

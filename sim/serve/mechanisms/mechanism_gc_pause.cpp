// Tail mechanism `gc_pause` (tail.gc_pauses; off: published only at live sets far above the
// reference runs'): Python gen-2 collections in the decode scheduler stall the iteration for a
// pause drawn uniformly in [pause_min_ms, pause_max_ms]. Collections arrive as a Poisson process
// with mean interval `interval_s`, per decode instance (the sources observed a server; a pause in
// one scheduler rank stalls all ranks: sglang PR #28067); with `at_requests` > 0 the interval
// shrinks in proportion to the running requests (gen-2 runs after a number of allocations, which
// grows with the requests served).
#include <algorithm>
#include <cmath>

#include "sim/scenario/profiled_section.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

// Scenario section tail.gc_pauses: the collection interval and pause range, from a profile
// (gc-sglang-pr9241, gc-sglang-issue30596) or inline.
struct GcPauseParams {
  static constexpr const char* kMechanism = "gc_pauses";
  double interval_s = 0;   // between gen-2 collections of one scheduler
  double at_requests = 0;  // live requests the interval was seen at (0: not scaled)
  double pause_min_ms = 0, pause_max_ms = 0;
  template <class V>
  static void declare(V& v) {
    using G = GcPauseParams;
    v.field(&G::interval_s, "interval_s",
            {.help = "mean interval between gen-2 collections of one scheduler",
             .unit = "s",
             .min = 0});
    v.field(&G::at_requests, "at_requests",
            {.help = "running requests the interval was seen at; the interval shrinks in "
                     "proportion above it (0: not scaled)",
             .unit = "requests",
             .min = 0});
    v.field(&G::pause_min_ms, "pause_min_ms",
            {.help = "shortest pause (uniform)", .unit = "ms", .min = 0});
    v.field(&G::pause_max_ms, "pause_max_ms",
            {.help = "longest pause (uniform)", .unit = "ms", .min = 0});
  }
  static void check(const GcPauseParams& g, bool enabled, const JsonNode& n) {
    if (enabled && g.interval_s <= 0) n.fail("expected interval_s > 0 when enabled");
    if (g.pause_max_ms < g.pause_min_ms)
      (n.has("pause_min_ms") ? n.at("pause_min_ms") : n)
          .fail("expected pause_min_ms <= pause_max_ms");
  }
};
using GcPausesSection = ProfiledSection<GcPauseParams>;

class GcPause final : public TailMechanism {
 public:
  GcPause(const GcPauseParams& g, uint64_t seed)
      : g_(g), rng_(Rng(seed).fork(0x67632d32)), id_(mechanism_id("gc_pause")) {}  // "gc-2"

  void apply(const IterationContext& c, ForwardTerms& t, MechanismTerms& m, Rng&) override {
    double running = 0;
    for (const auto& r : c.ranks) running += static_cast<double>(r.contexts.size());
    const double interval_us =
        g_.interval_s * 1e6 * (g_.at_requests > 0 ? g_.at_requests / std::max(1.0, running) : 1);
    if (!rng_.bernoulli(-std::expm1(-t.total_us() / interval_us))) return;
    const double pause_us = rng_.uniform(g_.pause_min_ms, g_.pause_max_ms) * 1e3;
    t.scheduler_us += pause_us;
    m[id_] = pause_us;
  }

 private:
  GcPauseParams g_;
  Rng rng_;
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::TailMechanismRegistry, "gc_pause",
               "tail.gc_pauses (off: published only at large live sets): Python gen-2 garbage "
               "collection stalls the decode scheduler",
               [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
                 const auto& g = e.d.scenario.tail.get<pdsim::GcPausesSection>("gc_pauses");
                 if (!g.enabled) return nullptr;
                 return std::make_unique<pdsim::GcPause>(g.params, e.seed);
               })
PDSIM_CONFIG_SECTION_CUSTOM("tail", "gc_pauses", pdsim::GcPausesSection, false, "",
                            "Python gen-2 GC in the decode scheduler stalls every rank of the "
                            "instance. Off: published only at live sets far above the reference "
                            "runs'")

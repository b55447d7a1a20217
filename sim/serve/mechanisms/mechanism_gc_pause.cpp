// Tail mechanism `gc_pause` (tail.gc_pauses; off: published only at live sets far above the
// reference runs'): Python gen-2 collections in the decode scheduler stall the iteration for a
// pause drawn uniformly in [pause_min_ms, pause_max_ms]. Collections arrive as a Poisson process
// with mean interval `interval_s`, per decode instance (the sources observed a server; a pause in
// one scheduler rank stalls all ranks: sglang PR #28067); with `at_requests` > 0 the interval
// shrinks in proportion to the running requests (gen-2 runs after a number of allocations, which
// grows with the requests served).
#include <algorithm>
#include <cmath>

#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

class GcPause final : public TailMechanism {
 public:
  GcPause(const TailConfig::GcPauses& g, uint64_t seed)
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
  TailConfig::GcPauses g_;
  Rng rng_;
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::TailMechanismRegistry, "gc_pause",
               "tail.gc_pauses (off: published only at large live sets): Python gen-2 garbage "
               "collection stalls the decode scheduler",
               [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
                 if (!e.d.scenario.tail.gc_pauses.enabled) return nullptr;
                 return std::make_unique<pdsim::GcPause>(e.d.scenario.tail.gc_pauses, e.seed);
               })

// Tail mechanism `scheduler_hiccup` (tail.scheduler_hiccups; off by default: no published
// measurement of SGLang scheduler stalls): with probability p per iteration the scheduler adds a
// fixed delay.
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

class SchedulerHiccup final : public TailMechanism {
 public:
  explicit SchedulerHiccup(const TailConfig::Hiccups& h)
      : p_(h.probability), delay_us_(h.delay_us), id_(mechanism_id("scheduler_hiccup")) {}

  void apply(const IterationContext&, ForwardTerms& t, MechanismTerms& m, Rng& rng) override {
    if (!rng.bernoulli(p_)) return;
    t.scheduler_us += delay_us_;
    m[id_] = delay_us_;
  }

 private:
  double p_, delay_us_;
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::TailMechanismRegistry, "scheduler_hiccup",
               "tail.scheduler_hiccups (off: unmeasured): a fixed scheduler stall with a "
               "probability per iteration",
               [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
                 const auto& h = e.d.scenario.tail.scheduler_hiccups;
                 if (!h.enabled) return nullptr;
                 return std::make_unique<pdsim::SchedulerHiccup>(h);
               })

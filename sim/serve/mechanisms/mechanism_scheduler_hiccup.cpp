// Tail mechanism `scheduler_hiccup` (tail.scheduler_hiccups; off by default: no published
// measurement of SGLang scheduler stalls): with probability p per iteration the scheduler adds a
// fixed delay.
#include "sim/scenario/profiled_section.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

// Scenario section tail.scheduler_hiccups.
struct HiccupsConfig {
  bool enabled = false;  // no published measurement of SGLang scheduler stalls: off
  double probability = 0;
  double delay_us = 0;
  Json provenance;

  template <class V>
  static void declare(V& v) {
    using H = HiccupsConfig;
    v.field(&H::enabled, "enabled",
            {.help = "with `probability` per iteration add `delay_us`; off: no published "
                     "measurement of SGLang scheduler stalls"});
    v.field(&H::probability, "probability", {.help = "per decode iteration", .min = 0, .max = 1});
    v.field(&H::delay_us, "delay_us", {.help = "the stall", .unit = "us", .min = 0});
    v.field(&H::provenance, "provenance",
            {.help = "the source of the figures (required when enabled)", .nullable = true});
  }
  static void validate(HiccupsConfig& c, const JsonNode& n) {
    profiled::need_provenance(n, c.enabled, c.provenance);
  }
};

class SchedulerHiccup final : public TailMechanism {
 public:
  explicit SchedulerHiccup(const HiccupsConfig& h)
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
                 const auto& h = e.d.scenario.tail.get<pdsim::HiccupsConfig>("scheduler_hiccups");
                 if (!h.enabled) return nullptr;
                 return std::make_unique<pdsim::SchedulerHiccup>(h);
               })
PDSIM_CONFIG_SECTION("tail", "scheduler_hiccups", pdsim::HiccupsConfig,
                     "a fixed scheduler stall with a probability per iteration")

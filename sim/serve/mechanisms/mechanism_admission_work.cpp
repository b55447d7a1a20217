// Tail mechanism `admission_work` (tail.admission_work; off: no measured cost of admitting a
// request whose KV transfer landed): host work per request that joins at the iteration's start
// (pre-allocation, request objects, first-token bookkeeping) delays that iteration.
#include "sim/scenario/profiled_section.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

// Scenario section tail.admission_work.
struct AdmissionWorkConfig {
  bool enabled = false;  // no measured cost of admitting a transferred request: off
  double us_per_request = 0;
  Json provenance;

  template <class V>
  static void declare(V& v) {
    using A = AdmissionWorkConfig;
    v.field(&A::enabled, "enabled",
            {.help = "host work per request admitted when its KV transfer lands; off: no "
                     "measured figure"});
    v.field(&A::us_per_request, "us_per_request",
            {.help = "host work per admitted request", .unit = "us", .min = 0});
    v.field(&A::provenance, "provenance",
            {.help = "the source of the figure (required when enabled)", .nullable = true});
  }
  static void validate(AdmissionWorkConfig& c, const JsonNode& n) {
    profiled::need_provenance(n, c.enabled, c.provenance);
  }
};

class AdmissionWork final : public TailMechanism {
 public:
  explicit AdmissionWork(double us) : us_(us), id_(mechanism_id("admission_work")) {}

  void apply(const IterationContext&, ForwardTerms& t, MechanismTerms& m, Rng&) override {
    if (m.admitted <= 0) return;
    const double added = m.admitted * us_;
    t.scheduler_us += added;
    m[id_] = added;
  }

 private:
  double us_;
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::TailMechanismRegistry, "admission_work",
               "tail.admission_work (off: unmeasured): host work per request admitted when its "
               "KV transfer lands",
               [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
                 const auto& a =
                     e.d.scenario.tail.get<pdsim::AdmissionWorkConfig>("admission_work");
                 if (!a.enabled) return nullptr;
                 return std::make_unique<pdsim::AdmissionWork>(a.us_per_request);
               })
PDSIM_CONFIG_SECTION("tail", "admission_work", pdsim::AdmissionWorkConfig,
                     "host work per request admitted when its KV transfer lands")

// Tail mechanism `batch_jump` (always recorded, adds nothing): when requests join others that are
// already running, the compute the iteration grew by over the instance's previous iteration.
// Joining an idle instance delays no running request, so it does not count.
#include <algorithm>

#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

class BatchJump final : public TailMechanism {
 public:
  explicit BatchJump(int instances)
      : prev_compute_(static_cast<size_t>(instances), 0.0), id_(mechanism_id("batch_jump")) {}

  void apply(const IterationContext& c, ForwardTerms& t, MechanismTerms& m, Rng&) override {
    const double compute = t.attention_us + t.moe_compute_us + t.other_us + t.draft_us;
    size_t running = 0;
    for (const auto& st : c.ranks) running += st.contexts.size();
    double& prev = prev_compute_[static_cast<size_t>(c.instance)];
    if (m.admitted > 0 && running > static_cast<size_t>(m.admitted))
      m[id_] = std::max(0.0, compute - prev);
    prev = compute;
  }

 private:
  std::vector<double> prev_compute_;  // per decode instance
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(
    pdsim::TailMechanismRegistry, "batch_jump",
    "recorded: compute growth over the previous iteration when requests join running ones",
    [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
      return std::make_unique<pdsim::BatchJump>(e.d.scenario.decode.instances);
    })

#pragma once
// Predictions for the runs of a validation set: each run's scenario with its overrides, under
// candidate profile overlays (applied after the scenario's own), simulated in a worker process
// (SimGrid allows one engine per process), `jobs` at a time. Every evaluation uses each run's
// scenario seed (or the one given): common random numbers, so a change of a parameter changes
// the prediction through the model only, not through a new random draw.
#include <optional>
#include <vector>

#include "sim/fit/validation_set.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

class SetPredictor {
 public:
  // Loads every run's scenario and deployment: input errors and infeasible layouts surface here,
  // before anything is simulated.
  SetPredictor(const ValidationSet& set, std::optional<uint64_t> seed, int jobs);
  // bench_serving summaries of runs `which` (indices into the set), in that order. `full` keeps
  // the summaries' "pdsim" block (breakdowns, provenance); without it only the metrics.
  std::vector<Json> predict(const std::vector<size_t>& which,
                            const std::vector<ProfileOverlay>& overlays, bool full = false) const;
  // The same for several overlay sets at once (all simulations share the worker pool):
  // result[c][k] is run which[k] under candidates[c].
  std::vector<std::vector<Json>> predict_many(
      const std::vector<size_t>& which, const std::vector<std::vector<ProfileOverlay>>& candidates,
      bool full = false) const;
  const ValidationSet& set() const { return set_; }
  const std::vector<Deployment>& deployments() const { return deployments_; }
  std::vector<size_t> all_runs() const;

 private:
  const ValidationSet& set_;
  std::vector<Scenario> scenarios_;
  std::vector<Deployment> deployments_;  // without candidate overlays
  std::vector<uint64_t> seeds_;
  int jobs_;
};

}  // namespace pdsim

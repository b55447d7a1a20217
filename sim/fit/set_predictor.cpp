#include "sim/fit/set_predictor.hpp"

#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {

SetPredictor::SetPredictor(const ValidationSet& set, std::optional<uint64_t> seed, int jobs)
    : set_(set), jobs_(jobs) {
  for (const auto& r : set.runs) {
    scenarios_.push_back(load_scenario(r.scenario, r.sets));
    deployments_.push_back(build_deployment(scenarios_.back()));
    seeds_.push_back(seed ? *seed : scenarios_.back().seed);
  }
}

std::vector<size_t> SetPredictor::all_runs() const {
  std::vector<size_t> v;
  for (size_t i = 0; i < set_.runs.size(); ++i) v.push_back(i);
  return v;
}

std::vector<Json> SetPredictor::predict(const std::vector<size_t>& which,
                                        const std::vector<ProfileOverlay>& overlays,
                                        bool full) const {
  return predict_many(which, {overlays}, full).front();
}

std::vector<std::vector<Json>> SetPredictor::predict_many(
    const std::vector<size_t>& which, const std::vector<std::vector<ProfileOverlay>>& candidates,
    bool full) const {
  const size_t n = which.size() * candidates.size();
  std::vector<std::vector<Json>> out(candidates.size(), std::vector<Json>(which.size()));
  std::vector<TaskOutcome> errors(n);  // failed tasks only
  run_in_processes(
      n, jobs_,
      [&](size_t t) {
        const size_t i = which[t % which.size()];
        const auto& overlays = candidates[t / which.size()];
        Json s = bench_summary(simulate(build_deployment(scenarios_[i], overlays), seeds_[i]));
        if (!full) s.erase("pdsim");
        return s;
      },
      [&](size_t t, TaskOutcome o) {
        if (o.ok)
          out[t / which.size()][t % which.size()] = std::move(o.result);
        else
          errors[t] = std::move(o);
      },
      "simulation of a validation run");
  for (size_t t = 0; t < n; ++t)
    if (!errors[t].error.empty())
      throw PropagatedError(errors[t].code, "run " + set_.runs[which[t % which.size()]].name +
                                                ": " + errors[t].error);
  return out;
}

}  // namespace pdsim

#pragma once
// What each tail mechanism added to one decode iteration (µs), recorded for attribution
// (tail_log.hpp). Each value is the iteration's time minus what it would have been with that
// mechanism alone switched off, as the cost model computes it; none is a noise term.
#include <array>
#include <map>
#include <string>

namespace pdsim {

struct MechanismTerms {
  double dp_imbalance_us = 0;  // Σ over layers of (slowest − mean) rank attention/dense/draft
  double expert_imbalance_us = 0;   // Σ over MoE layers of (slowest − mean) rank expert GEMMs
  double cuda_graph_miss_us = 0;    // eager launch − graph replay, when the batch is not captured
  double fabric_background_us = 0;  // packet fidelity: KV / PP in flight, summed over phases
  double batch_jump_us = 0;  // compute growth over the previous iteration when requests joined
  double scheduler_hiccup_us = 0;
  int admitted = 0;       // requests that joined at this iteration's start
  int loaded_phases = 0;  // a2a phase pairs that saw a background flow

  // The mechanisms in name order, and their values in that order (for loops over every
  // iteration, which must not build a map each time).
  static constexpr std::array<const char*, 6> names = {"batch_jump",        "cuda_graph_miss",
                                                       "dp_imbalance",      "expert_imbalance",
                                                       "fabric_background", "scheduler_hiccup"};
  std::array<double, 6> values() const {
    return {batch_jump_us,       cuda_graph_miss_us,   dp_imbalance_us,
            expert_imbalance_us, fabric_background_us, scheduler_hiccup_us};
  }
  std::map<std::string, double> named() const {
    std::map<std::string, double> m;
    const auto v = values();
    for (size_t k = 0; k < names.size(); ++k) m[names[k]] = v[k];
    return m;
  }
};

}  // namespace pdsim

#pragma once
// Prediction intervals from a fit's parameter uncertainty. An overlay written by
// `pdsim calibrate serving` carries its parameters' covariance; this draws parameter vectors from
// the multivariate normal around the fitted values (each clipped into its fit range), runs the
// scenario once per draw in worker processes, and reports each bench_serving metric's 5 / 50 / 95 %
// quantiles over the draws beside the point prediction. All draws share the run's seed (common
// random numbers), so the interval is the parameters' alone, not the workload's randomness.
#include <cstdint>
#include <vector>

#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/profile_overlay.hpp"

namespace pdsim {

// Overlays replacing every fitted value of `fitted` with a draw (n of them, deterministic in
// `seed`). InputError when the overlay carries no usable covariance.
std::vector<ProfileOverlay> sample_overlays(const ProfileOverlay& fitted, int n, uint64_t seed);

// The scenario's overlays that carry a fit covariance (loaded from its profile_overlays).
std::vector<ProfileOverlay> fitted_overlays(const Scenario& s);

// {"samples", "seed", "overlays": [...], "metrics": {key: {"point", "p05", "p50", "p95"}}}.
// InputError when the scenario applies no overlay with a covariance.
Json prediction_intervals(const Scenario& s, uint64_t seed, int samples, int jobs);

// The metrics reported with intervals.
const std::vector<std::string>& interval_metrics();

}  // namespace pdsim

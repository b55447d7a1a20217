#pragma once
// Prediction intervals from parameter uncertainty. An overlay written by `pdsim calibrate
// serving` carries its parameters' covariance; this draws parameter vectors from the multivariate
// normal around the fitted values (each clipped into its fit range). A held all-to-all parameter
// that no overlay set and whose profile gives it a prior from published serving figures
// (envelope.hpp's HeldParameter, e.g. DeepEP's in-serving fixed cost on ConnectX) is drawn
// uniformly from that prior in the same draws (issue 27, item 6: the side of a comparison no run
// measured carries its unknown term as an interval). The scenario runs once per draw in worker
// processes; each bench_serving metric's 5 / 50 / 95 % quantiles over the draws are reported
// beside the point prediction. All draws share the run's seed (common random numbers), so the
// interval is the parameters' alone, not the workload's randomness.
#include <cstdint>
#include <vector>

#include "sim/fit/envelope.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/profile_overlay.hpp"

namespace pdsim {

// Overlays replacing every fitted value of `fitted` with a draw (n of them, deterministic in
// `seed`). InputError when the overlay carries no usable covariance.
std::vector<ProfileOverlay> sample_overlays(const ProfileOverlay& fitted, int n, uint64_t seed);

// Overlays of the fabric profile `fabric_profile` drawing each of `held` that has a prior
// uniformly from it (n of them, deterministic in `seed`); empty when none has a prior.
std::vector<ProfileOverlay> prior_overlays(const std::string& fabric_profile,
                                           const std::vector<HeldParameter>& held, int n,
                                           uint64_t seed);

// The scenario's overlays that carry a fit covariance (loaded from its profile_overlays).
std::vector<ProfileOverlay> fitted_overlays(const Scenario& s);

// {"samples", "seed", "overlays": [...], "priors": [{parameter, lower, upper}],
//  "metrics": {key: {"p05", "p50", "p95"}}, "draws": {key: [value of draw k, null if absent]},
//  "note"}. Draw k of two scenarios with the same seed, samples and fitted overlays uses the same
//  fitted-parameter vector (the seeds above depend on nothing else), so their draws pair.
// InputError when the scenario applies no overlay with a covariance and holds no parameter with
// a prior.
Json prediction_intervals(const Scenario& s, uint64_t seed, int samples, int jobs);

// The metrics reported with intervals.
const std::vector<std::string>& interval_metrics();

}  // namespace pdsim

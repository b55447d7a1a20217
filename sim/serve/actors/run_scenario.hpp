#pragma once
// Entry points that run a scenario end to end. SimGrid allows one engine per process, so every
// simulation runs in a forked child that streams its results back (CBOR over a pipe); this also
// isolates crashes. Input errors (scenario, catalogs, profiles, feasibility) are raised in the
// calling process before anything is forked.
#include <optional>
#include <string>
#include <vector>

#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

Json results_to_json(const SimResults& r);
SimResults results_from_json(const Json& j);

SimResults simulate_isolated(const Deployment& d, uint64_t seed);
// Several simulations, each in its own child, at most `jobs` at once; results in input order.
std::vector<SimResults> simulate_isolated(const std::vector<const Deployment*>& runs,
                                          const std::vector<uint64_t>& seeds, int jobs);
// Scenario file + "--set" overrides + optional seed override (else the scenario's seed) + profile
// overlay files added after the scenario's own (`--profile-overlay`, paths as given).
SimResults run_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides,
                             std::optional<uint64_t> seed,
                             const std::vector<std::string>& overlay_files = {});
// The scenario as run_scenario_file loads it.
Scenario load_run_scenario(const std::string& path, const std::vector<std::string>& set_overrides,
                           std::optional<uint64_t> seed,
                           const std::vector<std::string>& overlay_files = {});

}  // namespace pdsim

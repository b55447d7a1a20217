#include "sim/serve/actors/run_scenario.hpp"
#include "sim/core/data_path.hpp"

#include <filesystem>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/fork_call.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/entities/results_transport.hpp"

namespace pdsim {

Json results_to_json(const SimResults& r) {
  return write_fields(r);
}

SimResults results_from_json(const Json& j) {
  return read_fields<SimResults>(JsonNode::from_json(j, "simulation results"));
}

SimResults simulate_isolated(const Deployment& d, uint64_t seed) {
  return results_from_transport(call_in_child([&] {
    try {
      return results_to_transport(simulate(d, seed));
    } catch (const InputError&) {
      throw;  // a bad input found while simulating (a catalog entry a mechanism loads): exit 2
    } catch (const InfeasibleError&) {
      throw;
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("simulation failed: ") + e.what());
    }
  }));
}

std::vector<SimResults> simulate_isolated(const std::vector<const Deployment*>& runs,
                                          const std::vector<uint64_t>& seeds, int jobs) {
  std::vector<Json> out(runs.size());
  std::vector<TaskOutcome> failed(runs.size());
  run_in_processes(
      runs.size(), jobs,
      [&](size_t i) { return results_to_transport(simulate(*runs[i], seeds[i])); },
      [&](size_t i, TaskOutcome o) {
        if (o.ok)
          out[i] = std::move(o.result);
        else
          failed[i] = std::move(o);
      },
      "simulation");
  for (const auto& f : failed)
    if (!f.error.empty()) throw PropagatedError(f.code, "simulation failed: " + f.error);
  std::vector<SimResults> r;
  for (auto& j : out) r.push_back(results_from_transport(std::move(j)));
  return r;
}

Scenario load_run_scenario(const std::string& path, const std::vector<std::string>& set_overrides,
                           std::optional<uint64_t> seed,
                           const std::vector<std::string>& overlay_files) {
  Scenario s = load_scenario(path, set_overrides);
  if (seed) s.seed = *seed;
  // Given on the command line: relative to the working directory, not to the scenario.
  // A name `pdsim list` prints resolves under the data directory.
  for (const auto& f : overlay_files)
    s.profile_overlays.push_back(
        std::filesystem::absolute(file_or_named(f, "calibrate/overlays").value_or(f))
            .lexically_normal()
            .string());
  return s;
}

SimResults run_scenario_file(const std::string& path, const std::vector<std::string>& set_overrides,
                             std::optional<uint64_t> seed,
                             const std::vector<std::string>& overlay_files) {
  const Scenario s = load_run_scenario(path, set_overrides, seed, overlay_files);
  Deployment d = build_deployment(s);
  return simulate_isolated(d, s.seed);
}

}  // namespace pdsim

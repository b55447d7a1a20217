#pragma once
// A validation set whose "measured" runs are pdsim's own predictions with the in-serving fixed cost
// fixed_us = 80 µs (efa-p5en, cpu-proxy): a fit must find 80 again. Each run is the quick GLM
// scenario with the set's `common` overrides, then its own. Returns the set file's path.
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/data_path.hpp"
#include "sim/fit/validation_set.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/cost/profile_overlay.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim::testing {

using SyntheticRun = std::pair<std::string, std::vector<std::string>>;  // name, own overrides

inline std::string synthetic_set(const std::string& dir, const std::string& name,
                                 const std::vector<std::string>& common,
                                 const std::vector<SyntheticRun>& runs) {
  std::filesystem::create_directories(dir);
  const std::string scenario = data_root() + "/scenarios/glm51-2p2d-efa-quick.json";
  Json truth = {
      {"schema", kProfileOverlaySchema},
      {"name", "truth"},
      {"provenance", Json::object()},
      {"profiles",
       {{"fabric",
         {{"profile", "efa-p5en"}, {"set", {{"a2a", {{"cpu-proxy", {{"fixed_us", 80.0}}}}}}}}}}}};
  std::ofstream(dir + "/truth.json") << truth.dump();
  Json rs = Json::array();
  for (const auto& [run, own] : runs) {
    std::vector<std::string> sets = common;
    sets.insert(sets.end(), own.begin(), own.end());
    const Json measured =
        bench_summary(run_scenario_file(scenario, sets, std::nullopt, {dir + "/truth.json"}));
    const std::string file = dir + "/" + run + ".json";
    std::ofstream(file) << measured.dump() << "\n";
    Json r = {{"name", run}, {"scenario", scenario}, {"measured", file}};
    if (!own.empty()) r["set"] = own;
    rs.push_back(r);
  }
  Json set = {{"schema", kValidationSetSchema},
              {"name", name},
              {"provenance", {{"kind", "synthetic"}}},
              {"set", common},
              {"runs", rs}};
  std::ofstream(dir + "/set.json") << set.dump();
  return dir + "/set.json";
}

}  // namespace pdsim::testing

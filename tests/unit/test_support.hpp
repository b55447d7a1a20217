#pragma once
// Helpers that several unit-test files share (one definition each).
#include <functional>
#include <string>
#include <vector>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim::testing {

// The message of the InputError that f throws, or "" when it throws none.
inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A sample of a third-party tool's output, under tests/data/formats/.
inline std::string format_sample(const std::string& name) {
  return data_root() + "/tests/data/formats/" + name;
}

// The bench_serving summary of the quick reference scenario on one fabric ("efa" or "roce").
inline Json quick_reference_summary(const std::string& fabric,
                                    const std::vector<std::string>& sets) {
  Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-" + fabric + "-quick.json", sets);
  return bench_summary(simulate_isolated(build_deployment(s), s.seed));
}

// A metric of such a summary that must be there (unlike pdsim::summary_number, which may be
// absent).
inline double metric(const Json& summary, const std::string& key) {
  return summary.at(key).get<double>();
}

}  // namespace pdsim::testing

// One simulation per process (sim/serve/actors/simulation.hpp): SimGrid keeps its clock across
// engines, so a second simulation in the same process would start where the first ended. It is
// refused; each in a child of its own gives the same result twice.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/fork_call.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/actors/simulation.hpp"

namespace pdsim {
namespace {

Deployment quick() {
  const Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-efa-quick.json",
                                   {"workload.num_prompts=2", "workload.output_len=8"});
  return build_deployment(s);
}

TEST(SimulationProcess, ASecondSimulationInOneProcessIsRefused) {
  const Deployment d = quick();
  // In a child: the first simulation runs, the second is refused before it starts.
  const Json got = call_in_child([&] {
    const double first_s = simulate(d, 1).duration_s;
    try {
      simulate(d, 1);
    } catch (const std::logic_error& e) {
      return Json{{"first_s", first_s}, {"error", e.what()}};
    }
    return Json{{"first_s", first_s}, {"error", ""}};
  });
  const std::string error = got.at("error").get<std::string>();
  EXPECT_NE(error.find("simulate() needs a fresh process"), std::string::npos) << error;
  // Isolated, twice: the same duration both times, and the first in-child run's.
  const double a = simulate_isolated(d, 1).duration_s;
  EXPECT_EQ(a, simulate_isolated(d, 1).duration_s);
  EXPECT_EQ(a, got.at("first_s").get<double>());
}

}  // namespace
}  // namespace pdsim

// Speed of the serving simulation at analytic fidelity: the full reference benchmark (1024
// requests, 120K in / 1K out, rate 0.4) on each fabric. Each iteration simulates in a forked
// child (SimGrid: one engine per process), so the time includes fork and result transfer.
// Peak RSS of the simulating child is reported as "child_maxrss_MB" and its CPU time (user +
// system, per iteration) as "child_cpu_ms", which a loaded machine inflates far less than wall.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include "sim/core/data_path.hpp"
#include "sim/serve/actors/run_scenario.hpp"

namespace {

void BM_ReferenceServing(benchmark::State& state, const std::string& name) {
  using namespace pdsim;
  Scenario s = load_scenario(data_root() + "/scenarios/" + name + ".json");
  Deployment d = build_deployment(s);
  size_t requests = 0;
  auto cpu_ms = [] {
    rusage ru{};
    getrusage(RUSAGE_CHILDREN, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  };
  const double cpu0 = cpu_ms();
  for (auto _ : state) {
    SimResults r = simulate_isolated(d, s.seed);
    requests = r.requests.size();
    benchmark::DoNotOptimize(r.duration_s);
  }
  rusage ru{};
  getrusage(RUSAGE_CHILDREN, &ru);
  state.counters["child_maxrss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
  state.counters["requests"] = static_cast<double>(requests);
  state.counters["child_cpu_ms"] = (cpu_ms() - cpu0) / static_cast<double>(state.iterations());
}

BENCHMARK_CAPTURE(BM_ReferenceServing, efa, std::string("glm51-2p2d-efa"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(5)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ReferenceServing, roce, std::string("glm51-2p2d-roce"))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(5)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();

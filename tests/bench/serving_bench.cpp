// Speed of the serving simulation at analytic fidelity: the full reference benchmark (1024
// requests, 120K in / 1K out, rate 0.4) on each fabric. Each iteration simulates in a forked
// child (SimGrid: one engine per process), so the time includes fork and result transfer.
// Then the steps after it on that run's results, in this process: their transfer across the
// worker boundary (encode + decode) and the itl.csv writer (10^6 rows).
// Peak RSS of the simulating child is reported as "child_maxrss_MB" and its CPU time (user +
// system, per iteration) as "child_cpu_ms", which a loaded machine inflates far less than wall.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include "reports/report_writer.hpp"
#include "sim/core/data_path.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "sim/serve/entities/results_transport.hpp"

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

// One reference run's results, simulated once per process.
const pdsim::SimResults& reference_results() {
  using namespace pdsim;
  static const SimResults r = [] {
    Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json");
    return simulate_isolated(build_deployment(s), s.seed);
  }();
  return r;
}

void BM_ResultsTransport(benchmark::State& state) {
  const pdsim::SimResults& r = reference_results();
  size_t chunks = 0;
  for (const auto& q : r.requests) chunks += q.chunk_times_s.size();
  for (auto _ : state) {
    pdsim::SimResults back = pdsim::results_from_transport(pdsim::results_to_transport(r));
    benchmark::DoNotOptimize(back.requests.data());
  }
  state.counters["chunks"] = static_cast<double>(chunks);
}
BENCHMARK(BM_ResultsTransport)->Unit(benchmark::kMillisecond)->Repetitions(5);

void BM_ItlCsv(benchmark::State& state) {
  const pdsim::SimResults& r = reference_results();
  const pdsim::Json summary = pdsim::bench_summary(r);
  size_t bytes = 0;
  for (auto _ : state) bytes = pdsim::render_report("csv-itl", r, summary).size();
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ItlCsv)->Unit(benchmark::kMillisecond)->Repetitions(5);

}  // namespace

BENCHMARK_MAIN();

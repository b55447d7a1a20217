// Speed of the serving simulation at analytic fidelity: the full reference benchmark (1024
// requests, 120K in / 1K out, rate 0.4) on each fabric. Each iteration simulates in a forked
// child (SimGrid: one engine per process), so the time includes fork and result transfer.
// Then the steps after it on that run's results, in this process: their transfer across the
// worker boundary (encode + decode) and the itl.csv writer (10^6 rows); building the deployment
// from its files; a round trip through a worker process; the start of a pdsim process.
// Peak RSS of the simulating child is reported as "child_maxrss_MB" and its CPU time (user +
// system, per iteration) as "child_cpu_ms", which a loaded machine inflates far less than wall.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "reports/report_writer.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/fork_call.hpp"
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

// Scenario loading and profile resolution: what every sweep point and fit evaluation repeats
// before it simulates (catalogs and profiles read from disk, the layout checked).
void BM_BuildDeployment(benchmark::State& state) {
  using namespace pdsim;
  const std::string path = data_root() + "/scenarios/glm51-2p2d-efa.json";
  for (auto _ : state) {
    Deployment d = build_deployment(load_scenario(path));
    benchmark::DoNotOptimize(d.decode_ranks);
  }
}
BENCHMARK(BM_BuildDeployment)->Unit(benchmark::kMillisecond)->Repetitions(5);

// The worker boundary for one run's results without the simulation: fork, encode in the child,
// the pipe, decode in the parent (sim/core/process_pool). simulate_isolated pays it per run.
void BM_WorkerRoundTrip(benchmark::State& state) {
  const pdsim::SimResults& r = reference_results();
  for (auto _ : state) {
    state.PauseTiming();  // the child moves its own results, as simulate_isolated's does
    pdsim::SimResults copy = r;
    state.ResumeTiming();
    pdsim::SimResults back = pdsim::results_from_transport(
        pdsim::call_in_child([&] { return pdsim::results_to_transport(std::move(copy)); }));
    benchmark::DoNotOptimize(back.requests.data());
  }
}
BENCHMARK(BM_WorkerRoundTrip)->Unit(benchmark::kMillisecond)->Repetitions(5)->UseRealTime();

// The floor of every CLI invocation: exec of `pdsim --version` (the pdsim beside this binary).
// Debian's libsimgrid is built with ns-3, so loading it resolves the ns-3 libraries' symbols
// and runs their static TypeId registrations before main.
void BM_ProcessStart(benchmark::State& state) {
  const std::string pdsim =
      std::filesystem::read_symlink("/proc/self/exe").parent_path().string() + "/pdsim";
  if (!std::filesystem::exists(pdsim)) {
    state.SkipWithError(("no " + pdsim).c_str());
    return;
  }
  // posix_spawn (vfork semantics): the time is pdsim's start, not a copy of this process.
  const int devnull = ::open("/dev/null", O_WRONLY);
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  posix_spawn_file_actions_adddup2(&io, devnull, 1);
  char arg0[] = "pdsim", arg1[] = "--version";
  char* argv[] = {arg0, arg1, nullptr};
  for (auto _ : state) {
    pid_t pid = -1;
    int status = -1;
    if (posix_spawn(&pid, pdsim.c_str(), &io, nullptr, argv, environ) == 0)
      ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      state.SkipWithError("pdsim --version failed");
  }
  posix_spawn_file_actions_destroy(&io);
  ::close(devnull);
}
BENCHMARK(BM_ProcessStart)->Unit(benchmark::kMillisecond)->Repetitions(5)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();

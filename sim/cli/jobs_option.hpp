#pragma once
// -j / --jobs, declared once for every command that runs simulations in worker processes
// (sim/core/process_pool): one spelling, one default (the CPU count), one range. Results never
// depend on it: workers' results are kept in task order.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <string>

namespace pdsim::cli {

inline constexpr int kMaxJobs = 1024;  // one process each: beyond any machine's cores

inline int cpu_count() {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

// `what`: what runs at once, e.g. "simulations of a validation set".
inline CLI::Option* add_jobs_option(CLI::App& app, int& jobs, const std::string& what) {
  jobs = cpu_count();
  return app.add_option("-j,--jobs", jobs, what + " run at once (default: the CPU count)")
      ->check(CLI::Range(1, kMaxJobs));
}

}  // namespace pdsim::cli

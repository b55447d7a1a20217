#pragma once
// The one place where pdcal and pdcal-gpu-proxy turn a failure into an exit code
// (sim/core/error.hpp): 2 a bad command line or peer message, 3 a probe failure (peer died or
// hung, fabric error, no device), 4 an I/O error, 1 anything else (a bug; out of memory). Each
// prints one line "TOOL: message" on stderr; nothing reaches abort().
#include <CLI/CLI.hpp>
#include <functional>

namespace pdsim::pdcal {

// Parses the command line into `app`, then returns run()'s exit code, or the code of whatever
// either threw. --help and --version exit 0.
int guarded_main(const char* tool, CLI::App& app, int argc, char** argv,
                 const std::function<int()>& run) noexcept;

}  // namespace pdsim::pdcal

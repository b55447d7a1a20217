#pragma once
// `pdsim calibrate collective FILES... -o PROFILE --library L --fabric F`: nccl-tests rows → a
// collective profile; options and action (cmd_collective.cpp), attached to the `calibrate`
// command's subcommand.
#include <CLI/CLI.hpp>
#include <functional>

namespace pdsim::cli {

// Adds the options to `sub` and returns the action to run when it was parsed.
std::function<int()> setup_calibrate_collective(CLI::App* sub);

}  // namespace pdsim::cli

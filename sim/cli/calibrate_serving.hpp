#pragma once
// `pdsim calibrate serving SET --fit PATH=LO:HI ... -o OVERLAY`: options and action
// (cmd_calibrate_serving.cpp), attached to the `calibrate` command's subcommand.
#include <CLI/CLI.hpp>
#include <functional>

namespace pdsim::cli {

// Adds the options to `sub` and returns the action to run when it was parsed.
std::function<int()> setup_calibrate_serving(CLI::App* sub);

}  // namespace pdsim::cli

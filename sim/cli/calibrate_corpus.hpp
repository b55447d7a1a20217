#pragma once
// `pdsim calibrate corpus SET... -o FILE`: every run of the validation sets simulated and
// compared, its deployment's coordinates, and the spread between deployments → a calibration
// corpus (sim/fit/calibration_corpus.hpp); options and action (cmd_calibrate_corpus.cpp).
#include <CLI/CLI.hpp>
#include <functional>

namespace pdsim::cli {

std::function<int()> setup_calibrate_corpus(CLI::App* sub);

}  // namespace pdsim::cli

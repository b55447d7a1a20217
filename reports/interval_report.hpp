#pragma once
// Prediction intervals from the fit's parameter uncertainty (sim/fit/parameter_samples.hpp) beside
// the point prediction: one line per metric, "point  [p05, p95]".
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string prediction_interval_text(const Json& summary, const Json& intervals,
                                     const std::string& title);

// The ratio B / A of each metric over paired draws (draw k of both sides shares the fitted
// parameters: same seed, samples and fitted overlays; prior draws are each side's own), so the
// shared terms' uncertainty cancels and what is left is what differs between the sides:
// {metric: {"p05", "p50", "p95", "pairs"}}. Null when the draws do not pair.
Json paired_ratio_intervals(const Json& a, const Json& b);
std::string paired_ratio_text(const Json& ratios, const std::string& name_a,
                              const std::string& name_b);

}  // namespace pdsim

#pragma once
// Prediction intervals from the fit's parameter uncertainty (sim/fit/parameter_samples.hpp) beside
// the point prediction: one line per metric, "point  [p05, p95]".
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string prediction_interval_text(const Json& summary, const Json& intervals,
                                     const std::string& title);

}  // namespace pdsim

#pragma once
// stdout's account of where a prediction stands relative to the calibration corpus: the
// "envelope" block of summary.json (sim/fit/envelope.hpp) in words.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string envelope_text(const Json& envelope);
// The metrics stdout and the report show an interval for (summary.json has every one).
const std::vector<std::string>& envelope_headline_metrics();
// One entry of a held parameter's "fitted_elsewhere": "76.23 ± 2.02" (no ± without a standard
// error), as stdout and the report print it.
std::string fitted_value_text(const Json& fitted);

}  // namespace pdsim

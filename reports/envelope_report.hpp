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

}  // namespace pdsim

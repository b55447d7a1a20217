#pragma once
// Text of the intervals over seeds (sim/sweep/seed_intervals.hpp): one column per scenario,
// "p50 [p05, p95]" per metric, predicted failures, and the mechanisms behind the worst gaps.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string seed_interval_text(const std::vector<Json>& entries);

}  // namespace pdsim

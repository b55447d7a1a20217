#pragma once
// stdout's account of the instances that joined or left (summary.json pdsim.elastic,
// sim/serve/actors/elastic_summary.hpp): when each joined and served, what its cold start was
// made of, when a leaving one had drained, and TTFT / ITL before, during and after each change.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string elastic_text(const Json& summary);

}  // namespace pdsim

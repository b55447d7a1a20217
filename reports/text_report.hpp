#pragma once
// The bench_serving result block (layout of SGLang bench_serving's stdout, "Accept length"
// only for speculative runs) followed by a short pdsim breakdown section.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string bench_text_block(const Json& summary);
std::string pdsim_breakdown_text(const Json& summary);

}  // namespace pdsim

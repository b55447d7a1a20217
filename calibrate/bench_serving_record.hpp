#pragma once
// The measured values of one SGLang bench_serving result record. Latencies (*_ms), throughputs,
// token counts, duration, concurrency and accept length are physical quantities: null (not
// measured) or a finite number >= 0. Anything else is a broken run or an edited file, and would
// otherwise be scored (a TPOT of −12.6 ms read as a +156.8 % error) or fitted to.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

bool is_bench_serving_measured_key(const std::string& key);

// InputError naming `file` and "<field>: <key>" for the first impossible value.
void check_bench_serving_values(const Json& record, const std::string& file,
                                const std::string& field);

}  // namespace pdsim

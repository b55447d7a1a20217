#pragma once
// Attribution of the ITL tail to the mechanisms that made it, from a run summary's
// pdsim.tail block (sim/serve/mechanisms/tail_log.hpp). ITL samples are decode iterations weighted
// by the requests they served, so the worst 1% of samples is a set of whole iterations.
//
// Run table: per forward term (attention, moe_compute, dispatch, combine, draft, other, launch,
// scheduler) its value in the weighted-median sample, the mean over the worst 1% and the
// maximum sample, and top-1% − median (what the tail adds, term by term); per mechanism how
// often it fired over all samples, its mean added µs over the worst 1%, how often it fired
// there, and what it added to the maximum sample.
// Compare: the same for two runs (A, B), with p99 / max ITL and B − A per term and mechanism
// over the worst 1% and in the maximum sample: the tail difference with its causes.
#include <array>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

Json tail_attribution_json(const Json& summary);
std::string tail_attribution_text(const Json& summary);
Json tail_compare_json(const Json& summary_a, const Json& summary_b,
                       const std::array<std::string, 2>& names);
std::string tail_compare_text(const Json& summary_a, const Json& summary_b,
                              const std::array<std::string, 2>& names);

}  // namespace pdsim

#pragma once
// What a finished sweep says: counts and infeasible reasons, the Pareto frontier of output
// throughput per GPU against mean TPOT, the configurations meeting the SLOs ranked by cost, and
// the cheapest one as SGLang launch flags.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace pdsim {

struct FrontierInput {
  double x = 0;  // lower is better (mean TPOT, ms)
  double y = 0;  // higher is better (output tokens/s per GPU)
};

// Indices of the points that no other point beats: none has x ≤ and y ≥ with one strict. Among
// exact duplicates only the first is kept. Sorted by x ascending (and so y ascending).
std::vector<size_t> pareto_frontier(const std::vector<FrontierInput>& pts);

// Analysis of the results lines of `spec` (any order; lines of another sweep are an error).
// Cost: the instance catalog has no prices, so configurations are ranked by GPU count, then by
// goodput per GPU (higher first), then by point index; "cost_basis" says so.
Json analyze_sweep(const SweepSpec& spec, std::vector<Json> lines);
std::string analysis_text(const Json& analysis);

}  // namespace pdsim

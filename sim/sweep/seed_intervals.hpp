#pragma once
// Extreme ITL statistics over seeds. Max and p99 ITL of one run are extreme statistics of one
// random realisation (arrivals, lengths, routing, acceptance, tail events); this runs each
// scenario at seeds first, first+1, …, first+n−1 in worker processes (all scenarios' seeds in
// one pool, so two fabrics share the cores evenly) and reports, per scenario:
//   - each interval metric's 5 / 50 / 95 % quantiles and its range over the seeds (numpy
//     "linear" quantiles, stats.hpp) — over the seeds that did not fail;
//   - the predicted failures (seed, mechanism, cause);
//   - per seed, the mechanism behind the worst gap: of the maximum ITL sample's mechanism
//     terms, the one that exceeds its value in the median sample the most (what made that
//     iteration worse than a typical one), with its share of (max − median); "none" when no
//     mechanism adds more there than in the median sample (the worst gap is then the forward
//     terms of a larger batch), with the forward term that grew most; and how many seeds each
//     mechanism was behind.
#include <cstdint>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

// One entry per scenario: {"scenario", "seeds", "first_seed", "metrics": {key: {p05, p50, p95,
// min, max}}, "failures": [...], "worst_gap": {"by_seed": [...], "mechanisms": {name: count}}}.
// `first_summaries`, when given (one per scenario), are the bench summaries of the runs at
// first_seed already made (the point prediction): those seeds are not simulated again.
std::vector<Json> seed_intervals(const std::vector<Scenario>& scenarios, uint64_t first_seed,
                                 int seeds, int jobs,
                                 const std::vector<Json>& first_summaries = {});

// The worst-gap record of one run summary (exposed for tests).
Json worst_gap(const Json& summary);

}  // namespace pdsim

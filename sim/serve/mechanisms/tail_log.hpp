#pragma once
// Per-iteration records of the decode simulation, reduced to what explains the ITL tail.
// Every running request streams one chunk per iteration, so the pooled ITL samples are the
// iteration durations, each weighted by the requests it served (a request's first gap runs from
// its admission, an iteration boundary, to the end of its first iteration). The log keeps, per
// instance-iteration, the forward terms and what each mechanism added (mechanism_terms.hpp),
// and reports: the weighted-median sample, the worst 1% of samples (mean terms and mechanisms,
// and how often each mechanism fired there), the maximum, and the worst iterations.
#include <deque>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/cost/forward_terms.hpp"
#include "sim/serve/mechanisms/mechanism_terms.hpp"

namespace pdsim {

struct IterationRecord {
  int instance = 0;
  double end_s = 0;
  double duration_us = 0;
  int requests = 0;  // ITL samples this iteration produced
  ForwardTerms terms;
  MechanismTerms mech;
};

// Extras block "tail" (see reports/tail_attribution.hpp for the tables made from it). The
// simulation logs into a deque: ~10^5 records of ~150 bytes grow without reallocation copies.
Json tail_summary(const std::deque<IterationRecord>& log, int worst_listed = 20);
Json tail_summary(const std::vector<IterationRecord>& log, int worst_listed = 20);

}  // namespace pdsim

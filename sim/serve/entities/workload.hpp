#pragma once
// Request generator with SGLang bench_serving `random` semantics: input/output lengths drawn
// uniformly (integers) in [max(⌊len·range_ratio⌋, 1), len]; Poisson arrivals at request_rate
// (the first request at t = 0, then exponential gaps, as bench_serving's get_request yields
// before it sleeps); request_rate = inf sends all at t = 0. max_concurrency is applied by the
// simulation (a client-side semaphore), not here.
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

struct RequestSpec {
  int id = 0;
  double gap_s = 0;  // wait after the previous request was sent (0 for the first)
  int input_len = 0;
  int output_len = 0;
};

std::vector<RequestSpec> generate_requests(const WorkloadConfig& w, Rng& rng);

}  // namespace pdsim

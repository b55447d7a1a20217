#pragma once
// Low-latency all-to-all rows of measurement files ("a2a_phase" probe) turned into simulator
// experiments: the A2AConfig the row was measured at, the phase and the measured latency.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/fabric/alltoall.hpp"

namespace pdsim {

struct A2ARow {
  std::string file, backend;
  size_t row = 0;
  A2AConfig cfg;
  int tokens_per_rank = 0;
  bool intranode_nvlink = true;
  A2APhase phase = A2APhase::dispatch;
  double latency_us = 0;
};

// Rows of one measurement document in low-latency mode without a `variant` (other rows, e.g.
// normal mode or per-expert batching, measure other mechanisms). Row members override the
// document's `parameters`; `backend` and `ep` may also come from its `context` (where imported
// files say what ran). Rows that are not one whole dispatch or combine phase (imported
// "dispatch+combine" totals, "send"/"recv" parts) are skipped with a line in `notes` ("results[i]:
// skipped, why").
std::vector<A2ARow> low_latency_rows(const JsonNode& doc,
                                     std::vector<std::string>* notes = nullptr);

// Mean simulated phase time over `samples` routings (stream s of Rng(seed)), as a microbenchmark
// sees it: without the backend's in-serving fixed cost `fixed_us`.
double simulate_a2a_row(const A2ABackend& b, const A2ARow& row, int samples, uint64_t seed);
std::vector<Routing> sample_row_routings(const A2ARow& row, int samples, uint64_t seed);

}  // namespace pdsim

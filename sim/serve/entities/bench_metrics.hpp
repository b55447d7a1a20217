#pragma once
// The bench_serving summary of a simulated run: SGLang `bench_serving` field names and
// semantics (calculate_metrics), so a prediction and a measured JSONL record diff key by key.
// Simulator extras go under "pdsim". Same SimResults → byte-identical dump(2).
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

// Over completed requests only (bench_serving drops failed ones):
//   ttft = first chunk − arrival; e2e = finish − arrival;
//   itl  = gaps between consecutive chunks of a request, pooled over requests;
//   tpot = (e2e − ttft) / (output_len − 1), only for output_len > 1;
//   concurrency = Σ e2e / duration;
//   accept_length = Σ tokens of all chunks after the first / number of such chunks (the
//     ratio SGLang's avg_spec_accept_length measures: tokens per request per verify step);
//     null when the run is not speculative;
//   max_output_tokens_per_s / max_concurrent_requests: per 1-s bucket from the first arrival,
//     counting chunks and in-flight requests as newer bench_serving builds do.
// Empty sample lists give 0 (bench_serving's `np.mean(x or 0)`); rates with duration ≤ 0 are
// null.
Json bench_summary(const SimResults& results);

// Provenance of each profile used: {"<kind>": {"name", "schema", "provenance"}} (whichever of
// these the profile carries).
Json profiles_provenance(const Json& profiles);

}  // namespace pdsim

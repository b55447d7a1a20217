#pragma once
// A run's state over time, from its request records alone (no simulator counters), on an even
// grid of instants from the first arrival to the last finish: requests waiting for prefill
// (sent, prefill not started), in prefill, between prefill and decode (waiting for or in the KV
// transfer), in decode (KV arrived, not finished: the decode batch over all ranks), and the
// tokens the decode ranks hold in KV (each request from its decode reservation: its prompt plus
// the tokens streamed so far). A request that never reached a stage stays in the one before
// it to the end. Counts are exact at each instant; between instants the chart joins them.
#include <vector>

#include "sim/serve/entities/results.hpp"

namespace pdsim {

struct RunTimeSeries {
  std::vector<double> t_s;  // instants, s since the run's time zero
  std::vector<double> waiting_prefill, prefilling, to_decode, decoding, decode_kv_tokens;
};

// `points` ≥ 2 instants (fewer: an empty series); no requests: empty.
RunTimeSeries run_time_series(const SimResults& r, size_t points);

}  // namespace pdsim

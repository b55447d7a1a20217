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

// The instants: `points` ≥ 2 evenly from the first arrival to the last finish (fewer, or no
// requests: none).
std::vector<double> run_time_grid(const SimResults& r, size_t points);
// The series at run_time_grid's instants.
RunTimeSeries run_time_series(const SimResults& r, size_t points);

// KV-cache traffic into each decode instance, as the mean rate over each of the points − 1
// intervals between the instants above (so no transfer falls between two instants): each
// completed transfer moves input_len × bytes_per_token evenly over [kv_start, kv_end).
// `t_s` holds the intervals' midpoints; `by_instance[i]` is decode instance i, in bytes/s.
struct KvRateSeries {
  std::vector<double> t_s;
  std::vector<std::vector<double>> by_instance;
};
KvRateSeries kv_rate_series(const SimResults& r, double bytes_per_token, size_t points);

}  // namespace pdsim

#include "reports/run_time_series.hpp"

#include <algorithm>
#include <limits>

namespace pdsim {
namespace {

// [from, to) with a missing end (< 0: the stage never ended) open to the end of the run.
bool within(double t, double from, double to) {
  return from >= 0 && t >= from && (to < 0 || t < to);
}

}  // namespace

std::vector<double> run_time_grid(const SimResults& r, size_t points) {
  std::vector<double> t;
  if (points < 2 || r.requests.empty()) return t;
  double t0 = std::numeric_limits<double>::infinity(), t1 = 0;
  for (const auto& q : r.requests) {
    t0 = std::min(t0, q.arrival_s);
    t1 = std::max({t1, q.arrival_s, q.finish_s});
  }
  for (size_t k = 0; k < points; ++k)
    t.push_back(t0 + (t1 - t0) * static_cast<double>(k) / static_cast<double>(points - 1));
  return t;
}

RunTimeSeries run_time_series(const SimResults& r, size_t points) {
  RunTimeSeries s;
  for (const double t : run_time_grid(r, points)) {
    double wait = 0, pre = 0, to_dec = 0, dec = 0, kv = 0;
    for (const auto& q : r.requests) {
      wait += within(t, q.arrival_s, q.prefill_start_s);
      pre += within(t, q.prefill_start_s, q.prefill_end_s);
      to_dec += within(t, q.prefill_end_s, q.kv_end_s);
      dec += within(t, q.kv_end_s, q.finish_s);
      const double held_from = q.decode_reserved_s >= 0 ? q.decode_reserved_s : q.kv_end_s;
      if (within(t, held_from, q.finish_s)) {
        // Tokens streamed at or before t (chunk times ascend).
        const auto done = std::upper_bound(q.chunk_times_s.begin(), q.chunk_times_s.end(), t) -
                          q.chunk_times_s.begin();
        double streamed = 0;
        for (long i = 0; i < done && static_cast<size_t>(i) < q.chunk_tokens.size(); ++i)
          streamed += q.chunk_tokens[static_cast<size_t>(i)];
        kv += q.input_len + streamed;
      }
    }
    s.t_s.push_back(t);
    s.waiting_prefill.push_back(wait);
    s.prefilling.push_back(pre);
    s.to_decode.push_back(to_dec);
    s.decoding.push_back(dec);
    s.decode_kv_tokens.push_back(kv);
  }
  return s;
}

KvRateSeries kv_rate_series(const SimResults& r, double bytes_per_token, size_t points) {
  KvRateSeries s;
  const std::vector<double> edges = run_time_grid(r, points);
  if (edges.size() < 2) return s;
  for (size_t k = 0; k + 1 < edges.size(); ++k) s.t_s.push_back((edges[k] + edges[k + 1]) / 2);
  int instances = 0;
  for (const auto& q : r.requests) instances = std::max(instances, q.decode_instance + 1);
  s.by_instance.assign(static_cast<size_t>(instances), std::vector<double>(s.t_s.size(), 0.0));
  for (const auto& q : r.requests) {
    if (!q.completed || q.decode_instance < 0 || q.kv_start_s < 0 || q.kv_end_s <= q.kv_start_s)
      continue;
    const double rate = q.input_len * bytes_per_token / (q.kv_end_s - q.kv_start_s);
    auto& row = s.by_instance[static_cast<size_t>(q.decode_instance)];
    for (size_t k = 0; k + 1 < edges.size(); ++k) {
      const double overlap = std::min(edges[k + 1], q.kv_end_s) - std::max(edges[k], q.kv_start_s);
      if (overlap > 0) row[k] += rate * overlap / (edges[k + 1] - edges[k]);
    }
  }
  return s;
}

}  // namespace pdsim

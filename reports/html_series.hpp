#pragma once
// The numbers behind the report charts, computed from a run's records or a sweep's lines
// (exact, unit-tested): pooled ITL samples and their empirical CDF, KV-transfer spans, sweep
// points and their Pareto frontier.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

// Gaps between consecutive streamed chunks of every completed request, in ms (the samples
// bench_serving pools into its ITL figures), in request then chunk order.
std::vector<double> pooled_itl_ms(const SimResults& r);

struct CdfPoint {
  double x = 0, fraction = 0;
};
// Empirical CDF of `samples`: points (x_(i), i/n) at ranks i = ceil(k·n/m), k = 1..m with m =
// min(n, max_points) (every sample when n ≤ max_points; the maximum always), equal x merged
// keeping the larger fraction.
std::vector<CdfPoint> ecdf(std::vector<double> samples, size_t max_points);
// The tail of `samples` for a log axis, to the worst sample: points (x, fraction of samples
// ≥ x) at the samples where that fraction first drops below 1, 10^(−1/k), 10^(−2/k), … (k =
// per_decade), the last at the maximum (fraction count_of_max / n, never 0). Ties are exact:
// the fraction counts every sample equal to x.
std::vector<CdfPoint> tail_points(std::vector<double> samples, int per_decade);

struct KvSpan {
  int request_id = 0;
  double start_s = 0, end_s = 0;
};
// KV transfers of completed requests that recorded one, in request order.
std::vector<KvSpan> kv_spans(const SimResults& r);
// Most transfers in flight at once (a span is [start, end); an end at t frees before a start at t).
int max_concurrent(const std::vector<KvSpan>& spans);

// One line of a sweep results file (the `pdsim sweep` contract).
struct SweepResultPoint {
  std::string id, status, reason;  // status "ok" | "infeasible" | "error"
  int point = -1;
  double gpus = 0;
  Json overrides = Json::object();  // {"dotted.path": value}
  Json summary = Json::object();
  Json slo = Json::object();
  // Where the point stands relative to what was measured: "inside", "outside: model, ...", or ""
  // when its line has no envelope (run with --corpus none, or an older results file).
  std::string envelope;
  std::optional<double> rate;  // overrides["workload.request_rate"], else summary.request_rate
  std::string config;  // the overrides other than the request rate, "k=v, ..." ("base" if none)
  std::string
      short_config;  // the same with each path's last component ("nodes_per_instance=2, ...")
  std::optional<double> metric(const std::string& key) const;  // summary number
  std::optional<double> throughput_per_gpu() const;            // output_throughput / gpus
};
// `lines[i]` is line i + 1 of `file` (InputError naming file and line on a bad line).
std::vector<SweepResultPoint> parse_sweep_points(const std::vector<Json>& lines,
                                                 const std::string& file);

// Indices of the "ok" points not dominated in (lower mean TPOT, higher output throughput per
// GPU), ordered by TPOT; of equal points the first is kept (sim/sweep/analysis.hpp's frontier,
// so the report shows what `pdsim sweep` reports).
std::vector<size_t> pareto_frontier(const std::vector<SweepResultPoint>& points);

}  // namespace pdsim

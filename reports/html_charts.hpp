#pragma once
// Chart.js configurations of the report charts (reports/html_doc.hpp renders them). Pure
// functions of the series: one colour per series from a fixed palette, so the same inputs give
// the same page.
#include <string>
#include <utility>
#include <vector>

#include "reports/breakdown.hpp"
#include "reports/html_series.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

template <typename T>
using Named = std::vector<std::pair<std::string, T>>;  // (series name, data)

Json itl_cdf_chart(const Named<std::vector<CdfPoint>>& series);
// 1 − CDF on a log axis: the tail of the same points (the last point, 1 − 1 = 0, is dropped).
Json itl_tail_chart(const Named<std::vector<CdfPoint>>& series);
// One stacked bar per run (labels), one colour per term (µs per decode forward).
Json breakdown_chart(const Named<std::vector<BreakdownTerm>>& runs);
// Each transfer a horizontal segment at its request id, from KV start to end (s).
Json kv_timeline_chart(const Named<std::vector<KvSpan>>& series);
// Each transfer's duration (ms) at its start time: contention between transfers shows as spread.
Json kv_duration_chart(const Named<std::vector<KvSpan>>& series);
// Mean (solid) and p99 (dashed) of `metric` ("ttft" | "tpot") against request rate, one colour
// per configuration.
Json vs_rate_chart(const std::vector<SweepResultPoint>& points, const std::string& metric,
                   const std::string& y_label);
// Every ok point (grey) and the frontier (line): throughput per GPU against mean TPOT.
Json pareto_chart(const std::vector<SweepResultPoint>& points, const std::vector<size_t>& frontier);

}  // namespace pdsim

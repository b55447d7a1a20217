#pragma once
// Chart.js configurations of the report charts (reports/html_doc.hpp renders them). Pure
// functions of the series. Colours: `colours` gives one per series (run_colours: by fabric);
// without it, the palette in series order; breakdown terms always their own (term_colour).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/breakdown.hpp"
#include "reports/html_series.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

template <typename T>
using Named = std::vector<std::pair<std::string, T>>;  // (series name, data)

// Series i's colour: colours[i] when given (not empty), else the palette's i-th.
std::string series_colour(const std::vector<std::string>& colours, size_t i);
// Chart.js axis and options blocks shared by every chart.
Json chart_axis(const std::string& title, const std::string& type = "linear");
Json chart_options(const Json& x, const Json& y, bool legend = true);
Json xy(double x, double y);

Json itl_cdf_chart(const Named<std::vector<CdfPoint>>& series,
                   const std::vector<std::string>& colours = {});
// Fraction of samples ≥ x on a log axis (tail_points), down to each run's worst sample.
Json itl_tail_chart(const Named<std::vector<CdfPoint>>& series,
                    const std::vector<std::string>& colours = {});
// One stacked bar per run (labels), one colour per term (µs per decode forward).
Json breakdown_chart(const Named<std::vector<BreakdownTerm>>& runs);
// Each transfer a horizontal segment at its request id, from KV start to end (s).
Json kv_timeline_chart(const Named<std::vector<KvSpan>>& series,
                       const std::vector<std::string>& colours = {});
// Each transfer's duration (ms) at its start time: contention between transfers shows as spread.
Json kv_duration_chart(const Named<std::vector<KvSpan>>& series,
                       const std::vector<std::string>& colours = {});
// Mean (solid) and p99 (dashed) of `metric` ("ttft" | "tpot") against request rate, one colour
// per configuration.
Json vs_rate_chart(const std::vector<SweepResultPoint>& points, const std::string& metric,
                   const std::string& y_label);
// Every ok point (grey) and the frontier (line): throughput per GPU against mean TPOT.
Json pareto_chart(const std::vector<SweepResultPoint>& points, const std::vector<size_t>& frontier);

// One line per series of (x, y) points (time series): `stepped` draws steps.
Json lines_chart(const Named<std::vector<std::pair<double, double>>>& series,
                 const std::vector<std::string>& colours, const std::string& x_label,
                 const std::string& y_label);

// Intervals as bands: one horizontal floating bar [lo, hi] per (row, series) and a point at
// each series' central value. Rows are the categories (metrics); series the runs.
struct IntervalBand {
  std::optional<double> lo, mid, hi;
};
Json interval_chart(const std::vector<std::string>& rows,
                    const Named<std::vector<IntervalBand>>& series,
                    const std::vector<std::string>& colours, const std::string& x_label);

}  // namespace pdsim

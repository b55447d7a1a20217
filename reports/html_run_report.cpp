// run_report_doc: tables and charts of one run or of two (a comparison, deltas B − A).
#include <algorithm>
#include <set>

#include "reports/breakdown.hpp"
#include "reports/html_charts.hpp"
#include "reports/html_report.hpp"
#include "reports/html_run_sections.hpp"
#include "reports/report_colours.hpp"
#include "sim/core/stats.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

constexpr size_t kCdfPoints = 1000;       // enough for a smooth curve; the tail keeps the maximum
constexpr int kTailPointsPerDecade = 40;  // the tail chart's resolution in 1 − F

// The run's fabric profile name from its resolved scenario ("" when absent).
std::string fabric_of(const RunView& r) {
  const Json& s = r.results ? r.results->resolved_scenario : Json();
  if (s.is_object() && s.contains("fabric") && s.at("fabric").is_object() &&
      s.at("fabric").contains("profile") && s.at("fabric").at("profile").is_string())
    return s.at("fabric").at("profile").get<std::string>();
  return "";
}

Json num_or_null(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

ReportTable metrics_table(const std::vector<RunView>& runs) {
  ReportTable t{"metrics", "Key metrics (bench_serving semantics)", {"metric"}, {-1}, {}};
  for (const auto& r : runs) {
    t.columns.push_back(r.name);
    t.decimals.push_back(2);
  }
  if (runs.size() == 2) {
    t.columns.push_back("delta (B - A)");
    t.decimals.push_back(2);
  }
  const std::vector<std::pair<const char*, const char*>> rows = {
      {"mean TTFT (ms)", "mean_ttft_ms"},
      {"median TTFT (ms)", "median_ttft_ms"},
      {"p99 TTFT (ms)", "p99_ttft_ms"},
      {"mean TPOT (ms)", "mean_tpot_ms"},
      {"median TPOT (ms)", "median_tpot_ms"},
      {"p99 TPOT (ms)", "p99_tpot_ms"},
      {"mean ITL (ms)", "mean_itl_ms"},
      {"median ITL (ms)", "median_itl_ms"},
      {"p95 ITL (ms)", "p95_itl_ms"},
      {"p99 ITL (ms)", "p99_itl_ms"},
      {"max ITL (ms)", "max_itl_ms"},
      {"mean E2E latency (ms)", "mean_e2e_latency_ms"},
      {"request throughput (req/s)", "request_throughput"},
      {"output throughput (tok/s)", "output_throughput"},
      {"concurrency", "concurrency"},
      {"accept length", "accept_length"},
      {"completed requests", "completed"}};
  for (const auto& [label, key] : rows) {
    std::vector<Json> row = {label};
    std::vector<std::optional<double>> vals;
    for (const auto& r : runs) {
      vals.push_back(summary_number(r.summary, key));
      const bool count = std::string(key) == "completed" && vals.back();
      row.push_back(count ? Json(static_cast<long long>(*vals.back())) : num_or_null(vals.back()));
    }
    if (runs.size() == 2)
      row.push_back(vals[0] && vals[1] ? Json(*vals[1] - *vals[0]) : Json(nullptr));
    t.rows.push_back(row);
  }
  return t;
}

ReportTable itl_table(const std::vector<RunView>& runs) {
  ReportTable t{"itl_percentiles",
                "ITL distribution (ms, pooled over requests; np.percentile linear)",
                {"run", "samples", "p50", "p90", "p99", "p99.9", "max"},
                {-1, -1, 3, 3, 3, 3, 3},
                {}};
  for (const auto& r : runs) {
    std::vector<double> v = pooled_itl_ms(*r.results);
    std::sort(v.begin(), v.end());
    std::vector<Json> row = {r.name, static_cast<long long>(v.size())};
    for (double pct : {50.0, 90.0, 99.0, 99.9, 100.0})
      row.push_back(v.empty() ? Json(nullptr) : Json(percentile_sorted(v, pct)));
    t.rows.push_back(row);
  }
  return t;
}

ReportTable breakdown_table(const std::vector<RunView>& runs) {
  ReportTable t{
      "forward_breakdown", "Decode forward breakdown (mean µs per forward)", {"term"}, {-1}, {}};
  std::vector<std::string> terms;
  std::set<std::string> seen;
  for (const auto& r : runs) {
    t.columns.push_back(r.name);
    t.decimals.push_back(2);
    for (const auto& term : forward_terms(r.summary))
      if (seen.insert(term.name).second) terms.push_back(term.name);
  }
  std::vector<double> total(runs.size(), 0);
  for (const auto& name : terms) {
    std::vector<Json> row = {name};
    for (size_t i = 0; i < runs.size(); ++i) {
      double us = 0;
      for (const auto& term : forward_terms(runs[i].summary))
        if (term.name == name) us = term.us;
      total[i] += us;
      row.push_back(us);
    }
    t.rows.push_back(row);
  }
  if (!terms.empty()) {
    std::vector<Json> row = {"total"};
    for (double v : total) row.push_back(v);
    t.rows.push_back(row);
  }
  return t;
}

ReportTable kv_table(const std::vector<RunView>& runs) {
  ReportTable t{
      "kv_transfers",
      "KV-cache transfers (prefill → decode)",
      {"run", "transfers", "mean (ms)", "p50 (ms)", "p99 (ms)", "max (ms)", "max in flight"},
      {-1, -1, 3, 3, 3, 3, -1},
      {}};
  for (const auto& r : runs) {
    const auto spans = kv_spans(*r.results);
    std::vector<double> ms;
    for (const auto& s : spans) ms.push_back(s_to_ms(s.end_s - s.start_s));
    std::vector<Json> row = {r.name, static_cast<long long>(spans.size())};
    if (ms.empty()) {
      for (int i = 0; i < 4; ++i) row.push_back(nullptr);
    } else {
      row.push_back(mean_of(ms));
      row.push_back(percentile_of(ms, 50));
      row.push_back(percentile_of(ms, 99));
      row.push_back(max_of(ms));
    }
    row.push_back(max_concurrent(spans));
    t.rows.push_back(row);
  }
  return t;
}

}  // namespace

ReportDoc run_report_doc(const std::vector<RunView>& runs) {
  ReportDoc d;
  if (runs.size() == 2) {
    d.title = "pdsim compare: " + runs[0].name + " vs " + runs[1].name;
    d.subtitle = "A = " + runs[0].name + ", B = " + runs[1].name + "; deltas are B − A.";
  } else {
    d.title = "pdsim run: " +
              (runs.empty() || runs[0].name.empty() ? std::string("(unnamed)") : runs[0].name);
    if (!runs.empty() && runs[0].results)
      d.subtitle = "Seed " + std::to_string(runs[0].results->seed) + ".";
  }
  Named<std::vector<CdfPoint>> cdf, tail;
  Named<std::vector<BreakdownTerm>> terms;
  Named<std::vector<KvSpan>> kv;
  std::vector<std::string> fabrics;
  for (const auto& r : runs) {
    const std::vector<double> itl = pooled_itl_ms(*r.results);
    cdf.push_back({r.name, ecdf(itl, kCdfPoints)});
    tail.push_back({r.name, tail_points(itl, kTailPointsPerDecade)});
    terms.push_back({r.name, forward_terms(r.summary)});
    kv.push_back({r.name, kv_spans(*r.results)});
    fabrics.push_back(fabric_of(r));
  }
  const std::vector<std::string> colours = run_colours(fabrics);
  d.charts.push_back({"itl-cdf", "ITL CDF",
                      "Gaps between streamed chunks, pooled over requests (a speculative chunk "
                      "carries several tokens).",
                      itl_cdf_chart(cdf, colours)});
  d.charts.push_back({"itl-tail", "ITL tail",
                      "Fraction of ITL samples at or above x, log scale, to the worst sample.",
                      itl_tail_chart(tail, colours)});
  d.charts.push_back({"breakdown", "Per-forward time breakdown",
                      "Mean µs per decode forward, by term (summary pdsim.forward_breakdown_us).",
                      breakdown_chart(terms)});
  d.charts.push_back({"kv-timeline", "KV-transfer timeline",
                      "Each request's KV-cache transfer from its start to its end.",
                      kv_timeline_chart(kv, colours)});
  d.charts.push_back({"kv-duration", "KV-transfer time",
                      "Each transfer's duration at its start time (s since the first request).",
                      kv_duration_chart(kv, colours)});
  d.tables = {metrics_table(runs), itl_table(runs), breakdown_table(runs), kv_table(runs)};
  add_envelope_sections(d, runs);
  add_elastic_sections(d, runs);
  add_time_series_sections(d, runs, colours);
  add_network_sections(d, runs, colours);
  add_tail_sections(d, runs);
  add_interval_sections(d, runs, colours);
  return d;
}

}  // namespace pdsim

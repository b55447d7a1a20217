// sweep_report_doc: a sweep's points, TTFT and TPOT against request rate, the Pareto frontier
// of output throughput per GPU against mean TPOT, and the breakdown of the frontier points.
#include <algorithm>
#include <climits>
#include <set>
#include <sstream>

#include "reports/breakdown.hpp"
#include "reports/html_charts.hpp"
#include "reports/html_report.hpp"
#include "reports/html_sweep_slo.hpp"

namespace pdsim {
namespace {

constexpr size_t kMaxBreakdownBars = 24;

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

ReportTable points_table(const std::vector<SweepResultPoint>& pts,
                         const std::vector<size_t>& frontier) {
  ReportTable t{
      "sweep_points",
      "Sweep points",
      {"point", "status", "config", "rate (req/s)", "gpus", "mean TTFT (ms)", "p99 TTFT (ms)",
       "mean TPOT (ms)", "p99 TPOT (ms)", "p99 ITL (ms)", "req/s", "output tok/s",
       "output tok/s per GPU", "on frontier", "measured envelope", "reason", "id"},
      {-1, -1, -1, 3, -1, 2, 2, 2, 2, 2, 3, 1, 2, -1, -1, -1, -1},
      {}};
  std::set<std::string> slo_keys;
  for (const auto& p : pts)
    for (const auto& [k, v] : p.slo.items())
      if (!v.is_object() && !v.is_array()) slo_keys.insert(k);
  for (const auto& k : slo_keys) {
    t.columns.push_back("slo." + k);
    t.decimals.push_back(3);
  }
  const std::set<size_t> on(frontier.begin(), frontier.end());
  for (size_t i = 0; i < pts.size(); ++i) {
    const auto& p = pts[i];
    std::vector<Json> row = {static_cast<long long>(p.point), p.status, p.config, opt(p.rate),
                             p.gpus > 0 ? Json(static_cast<long long>(p.gpus)) : Json(nullptr)};
    for (const char* k : {"mean_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "p99_tpot_ms",
                          "p99_itl_ms", "request_throughput", "output_throughput"})
      row.push_back(opt(p.metric(k)));
    row.push_back(opt(p.throughput_per_gpu()));
    row.push_back(on.count(i) > 0);
    row.push_back(p.envelope.empty() ? Json(nullptr) : Json(p.envelope));
    row.push_back(p.reason);
    row.push_back(p.id);
    for (const auto& k : slo_keys) row.push_back(p.slo.contains(k) ? p.slo.at(k) : Json(nullptr));
    t.rows.push_back(row);
  }
  return t;
}

ReportTable frontier_table(const std::vector<SweepResultPoint>& pts,
                           const std::vector<size_t>& frontier) {
  ReportTable t{"pareto_frontier",
                "Pareto frontier (output throughput per GPU vs mean TPOT)",
                {"point", "config", "rate (req/s)", "mean TPOT (ms)", "output tok/s per GPU",
                 "measured envelope", "id"},
                {-1, -1, 3, 2, 2, -1, -1},
                {}};
  for (size_t i : frontier)
    t.rows.push_back({static_cast<long long>(pts[i].point), pts[i].config, opt(pts[i].rate),
                      opt(pts[i].metric("mean_tpot_ms")), opt(pts[i].throughput_per_gpu()),
                      pts[i].envelope.empty() ? Json(nullptr) : Json(pts[i].envelope), pts[i].id});
  return t;
}

}  // namespace

ReportDoc sweep_report_doc(const std::vector<Json>& lines, const std::string& file,
                           const std::string& sweep_name, const Json& analysis) {
  auto pts = parse_sweep_points(lines, file);
  // Results files are in completion order: show points in sweep order (unnumbered ones last).
  std::stable_sort(pts.begin(), pts.end(),
                   [](const SweepResultPoint& a, const SweepResultPoint& b) {
                     return (a.point < 0 ? INT_MAX : a.point) < (b.point < 0 ? INT_MAX : b.point);
                   });
  const auto frontier = pareto_frontier(pts);
  ReportDoc d;
  std::string name = sweep_name.empty() ? "sweep" : sweep_name;
  if (sweep_name.empty() && !lines.empty() && lines[0].is_object() && lines[0].contains("sweep") &&
      lines[0].at("sweep").is_string())
    name = lines[0].at("sweep").get<std::string>();
  size_t ok = 0;
  for (const auto& p : pts) ok += p.status == "ok";
  d.title = "pdsim sweep: " + name;
  d.subtitle = std::to_string(pts.size()) + " points, " + std::to_string(ok) + " ok, " +
               std::to_string(pts.size() - ok) + " infeasible or failed; " +
               std::to_string(frontier.size()) + " on the Pareto frontier.";
  // Taller charts when many configurations share the legend.
  std::set<std::string> configs;
  for (const auto& p : pts) configs.insert(p.config);
  const int height = 340 + 9 * static_cast<int>(std::min<size_t>(configs.size(), 16));
  const Json slo = analysis.is_object() ? analysis.value("slo", Json(nullptr)) : Json(nullptr);
  double lo = 0, hi = 0;
  for (const auto& p : pts)
    if (p.status == "ok" && p.rate) {
      lo = lo == 0 && hi == 0 ? *p.rate : std::min(lo, *p.rate);
      hi = std::max(hi, *p.rate);
    }
  if (hi <= lo) {  // one rate: the SLO line still needs a length to be seen
    lo *= 0.9;
    hi = hi * 1.1 + (hi == 0 ? 1 : 0);
  }
  Json ttft = vs_rate_chart(pts, "ttft", "TTFT (ms)"),
       tpot = vs_rate_chart(pts, "tpot", "TPOT (ms)");
  add_slo_lines(ttft, slo, "ttft", lo, hi);
  add_slo_lines(tpot, slo, "tpot", lo, hi);
  const std::string slo_note = slo.is_null() ? "" : "; red: the SLO thresholds";
  d.charts.push_back({"ttft-rate", "TTFT against request rate",
                      "Mean (solid) and p99 (dashed) per configuration" + slo_note + ".", ttft,
                      height});
  d.charts.push_back({"tpot-rate", "TPOT against request rate",
                      "Mean (solid) and p99 (dashed) per configuration" + slo_note + ".", tpot,
                      height});
  d.charts.push_back(
      {"pareto", "Pareto frontier",
       "Output throughput per GPU against mean TPOT; the line joins the non-dominated points.",
       pareto_chart(pts, frontier)});
  Named<std::vector<BreakdownTerm>> bars;
  for (size_t i : frontier) {
    if (bars.size() >= kMaxBreakdownBars) break;
    auto terms = forward_terms(pts[i].summary);
    if (terms.empty()) continue;
    std::ostringstream label;  // the shortest exact form of the rate: 0.5, 1, 2
    label << "point " << pts[i].point << ": " << pts[i].short_config;
    if (pts[i].rate) label << " at " << *pts[i].rate << " req/s";
    bars.push_back({label.str(), terms});
  }
  if (!bars.empty())
    d.charts.push_back({"breakdown", "Per-forward time breakdown (frontier points)",
                        "Mean µs per decode forward, by term.", breakdown_chart(bars)});
  d.tables = cheapest_tables(analysis);
  const ReportTable cap = capacity_table(pts);
  if (!cap.rows.empty()) d.tables.push_back(cap);
  d.tables.push_back(frontier_table(pts, frontier));
  d.tables.push_back(points_table(pts, frontier));
  return d;
}

}  // namespace pdsim

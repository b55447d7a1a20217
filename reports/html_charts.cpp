#include "reports/html_charts.hpp"

#include <cmath>
#include <map>
#include <set>

#include "reports/report_colours.hpp"

namespace pdsim {
namespace {

std::string colour(size_t i) {
  return series_colour({}, i);
}

}  // namespace

std::string series_colour(const std::vector<std::string>& colours, size_t i) {
  if (i < colours.size() && !colours[i].empty()) return colours[i];
  return report_palette()[i % report_palette().size()];
}

Json chart_axis(const std::string& title, const std::string& type) {
  return {{"type", type}, {"title", {{"display", true}, {"text", title}}}};
}

Json chart_options(const Json& x, const Json& y, bool legend) {
  return {{"parsing", true},
          {"scales", {{"x", x}, {"y", y}}},
          {"plugins", {{"legend", {{"display", legend}}}}}};
}

Json xy(double x, double y) {
  return {{"x", x}, {"y", y}};
}

Json itl_cdf_chart(const Named<std::vector<CdfPoint>>& series,
                   const std::vector<std::string>& colours) {
  Json ds = Json::array();
  for (size_t i = 0; i < series.size(); ++i) {
    Json pts = Json::array();
    for (const auto& p : series[i].second) pts.push_back(xy(p.x, p.fraction));
    ds.push_back({{"label", series[i].first},
                  {"data", pts},
                  {"borderColor", series_colour(colours, i)},
                  {"backgroundColor", series_colour(colours, i)},
                  {"stepped", "after"},
                  {"pointRadius", 0},
                  {"borderWidth", 2}});
  }
  Json y = chart_axis("fraction of ITL samples ≤ x");
  y["min"] = 0;
  y["max"] = 1;
  return {{"type", "line"},
          {"data", {{"datasets", ds}}},
          {"options", chart_options(chart_axis("ITL (ms)"), y)}};
}

Json itl_tail_chart(const Named<std::vector<CdfPoint>>& series,
                    const std::vector<std::string>& colours) {
  Json ds = Json::array();
  double smallest = 1;
  for (size_t i = 0; i < series.size(); ++i) {
    Json pts = Json::array();
    for (const auto& p : series[i].second) {
      pts.push_back(xy(p.x, p.fraction));
      smallest = std::min(smallest, p.fraction);
    }
    ds.push_back({{"label", series[i].first},
                  {"data", pts},
                  {"borderColor", series_colour(colours, i)},
                  {"backgroundColor", series_colour(colours, i)},
                  {"pointRadius", 0},
                  {"borderWidth", 2}});
  }
  // The axis reaches the decade below the rarest point (the worst sample of the longest run).
  Json y = chart_axis("fraction of ITL samples ≥ x", "logarithmic");
  y["min"] = std::pow(10.0, std::floor(std::log10(smallest)));
  y["max"] = 1;
  return {{"type", "line"},
          {"data", {{"datasets", ds}}},
          {"options", chart_options(chart_axis("ITL (ms)"), y)}};
}

Json breakdown_chart(const Named<std::vector<BreakdownTerm>>& runs) {
  // Terms in order of first appearance (each run's list is largest first).
  std::vector<std::string> terms;
  std::set<std::string> seen;
  for (const auto& r : runs)
    for (const auto& t : r.second)
      if (seen.insert(t.name).second) terms.push_back(t.name);
  Json labels = Json::array();
  for (const auto& r : runs) labels.push_back(r.first);
  Json ds = Json::array();
  for (size_t k = 0; k < terms.size(); ++k) {
    Json vals = Json::array();
    for (const auto& r : runs) {
      double us = 0;
      for (const auto& t : r.second)
        if (t.name == terms[k]) us = t.us;
      vals.push_back(us);
    }
    ds.push_back({{"label", terms[k]}, {"data", vals}, {"backgroundColor", term_colour(terms[k])}});
  }
  Json x = {{"stacked", true}};
  Json y = chart_axis("µs per decode forward");
  y["stacked"] = true;
  return {{"type", "bar"},
          {"data", {{"labels", labels}, {"datasets", ds}}},
          {"options", chart_options(x, y)}};
}

Json kv_timeline_chart(const Named<std::vector<KvSpan>>& series,
                       const std::vector<std::string>& colours) {
  Json ds = Json::array();
  for (size_t i = 0; i < series.size(); ++i) {
    Json pts = Json::array();
    // Series side by side around each request id, so two fabrics' transfers do not hide each other.
    const double dy =
        series.size() > 1
            ? 0.35 * (static_cast<double>(i) / static_cast<double>(series.size() - 1) - 0.5)
            : 0;
    for (const auto& s : series[i].second) {
      pts.push_back(xy(s.start_s, s.request_id + dy));
      pts.push_back(xy(s.end_s, s.request_id + dy));
      pts.push_back({{"x", s.end_s}, {"y", nullptr}});  // breaks the line between transfers
    }
    ds.push_back({{"label", series[i].first},
                  {"data", pts},
                  {"borderColor", series_colour(colours, i)},
                  {"backgroundColor", series_colour(colours, i)},
                  {"pointRadius", 1.5},
                  {"borderWidth", 3},
                  {"spanGaps", false}});
  }
  Json y = chart_axis("request id");
  y["min"] = -1;
  return {{"type", "line"},
          {"data", {{"datasets", ds}}},
          {"options", chart_options(chart_axis("time since the first request (s)"), y)}};
}

Json kv_duration_chart(const Named<std::vector<KvSpan>>& series,
                       const std::vector<std::string>& colours) {
  Json ds = Json::array();
  for (size_t i = 0; i < series.size(); ++i) {
    Json pts = Json::array();
    for (const auto& s : series[i].second)
      pts.push_back(xy(s.start_s, (s.end_s - s.start_s) * 1e3));
    ds.push_back({{"label", series[i].first},
                  {"data", pts},
                  {"borderColor", series_colour(colours, i)},
                  {"backgroundColor", series_colour(colours, i)},
                  {"pointRadius", 2.5}});
  }
  Json y = chart_axis("KV transfer time (ms)");
  y["beginAtZero"] = true;
  return {{"type", "scatter"},
          {"data", {{"datasets", ds}}},
          {"options", chart_options(chart_axis("transfer start (s since the first request)"), y)}};
}

Json vs_rate_chart(const std::vector<SweepResultPoint>& points, const std::string& metric,
                   const std::string& y_label) {
  std::map<std::string, std::vector<const SweepResultPoint*>> by_config;
  std::vector<std::string> order;
  for (const auto& p : points) {
    if (p.status != "ok" || !p.rate) continue;
    if (!by_config.count(p.config)) order.push_back(p.config);
    by_config[p.config].push_back(&p);
  }
  Json ds = Json::array();
  for (size_t i = 0; i < order.size(); ++i) {
    auto pts = by_config[order[i]];
    std::stable_sort(
        pts.begin(), pts.end(),
        [](const SweepResultPoint* a, const SweepResultPoint* b) { return *a->rate < *b->rate; });
    for (const char* stat : {"mean", "p99"}) {
      Json data = Json::array();
      for (const SweepResultPoint* p : pts)
        if (auto v = p->metric(std::string(stat) + "_" + metric + "_ms"))
          data.push_back(xy(*p->rate, *v));
      Json d = {{"label", pts.front()->short_config + " (" + stat + ")"},
                {"data", data},
                {"borderColor", colour(i)},
                {"backgroundColor", colour(i)},
                {"pointRadius", 3},
                {"borderWidth", 2}};
      if (std::string(stat) == "p99") {
        d["borderDash"] = {6, 4};
        d["pdsimNoLegend"] = true;  // one legend entry per configuration (the mean line)
      }
      ds.push_back(d);
    }
  }
  return {{"type", "line"},
          {"data", {{"datasets", ds}}},
          {"options", chart_options(chart_axis("request rate (req/s)"), chart_axis(y_label),
                                    order.size() <= 16)}};
}

Json pareto_chart(const std::vector<SweepResultPoint>& points,
                  const std::vector<size_t>& frontier) {
  Json all = Json::array(), front = Json::array();
  for (const auto& p : points)
    if (p.status == "ok" && p.metric("mean_tpot_ms") && p.throughput_per_gpu())
      all.push_back(xy(*p.metric("mean_tpot_ms"), *p.throughput_per_gpu()));
  for (size_t i : frontier)
    front.push_back(xy(*points[i].metric("mean_tpot_ms"), *points[i].throughput_per_gpu()));
  Json ds = Json::array();
  ds.push_back({{"type", "line"},
                {"label", "Pareto frontier"},
                {"data", front},
                {"borderColor", colour(1)},
                {"backgroundColor", colour(1)},
                {"pointRadius", 4},
                {"borderWidth", 2}});
  ds.push_back({{"type", "scatter"},
                {"label", "sweep points"},
                {"data", all},
                {"borderColor", "#9aa3b0"},
                {"backgroundColor", "#9aa3b0"},
                {"pointRadius", 3}});
  return {{"type", "scatter"},
          {"data", {{"datasets", ds}}},
          {"options",
           chart_options(chart_axis("mean TPOT (ms)"), chart_axis("output tokens/s per GPU"))}};
}

}  // namespace pdsim

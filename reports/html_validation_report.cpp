#include "reports/html_validation_report.hpp"

#include <algorithm>
#include <cmath>

#include "reports/html_charts.hpp"
#include "reports/text_format.hpp"

namespace pdsim {
namespace {

constexpr double kGuidePct = 10;  // the guide lines: ±10 %, the fit warnings' poor-fit limit

// Dashed grey lines at ±kGuidePct over `n` categories (a mixed bar/line chart).
}  // namespace

void add_error_guides(Json& ds, size_t n) {
  for (double g : {kGuidePct, -kGuidePct})
    ds.push_back({{"type", "line"},
                  {"label", "±10 %"},
                  {"data", std::vector<double>(n, g)},
                  {"borderColor", "#9aa3b0"},
                  {"borderDash", {5, 4}},
                  {"borderWidth", 1},
                  {"pointRadius", 0},
                  {"pdsimNoLegend", g < 0}});
}

namespace {

Json error_bars(const std::vector<std::string>& labels, const Json& datasets) {
  Json ds = datasets;
  add_error_guides(ds, labels.size());
  Json y = chart_axis("error % (predicted vs measured)");
  return {{"type", "bar"},
          {"data", {{"labels", labels}, {"datasets", ds}}},
          {"options", chart_options({{"type", "category"}}, y)}};
}

}  // namespace

ReportDoc validation_report_doc(const Json& validation, const std::string& title) {
  ReportDoc d;
  d.title = "pdsim validate: " + title;
  const Json& runs = validation.at("runs");
  d.subtitle = std::to_string(runs.size()) +
               " measured run(s). Error % = (predicted − measured) "
               "/ |measured|; rows a record's known artefacts invalidate are not compared.";
  if (validation.contains("mean_abs_latency_error_pct") &&
      validation.at("mean_abs_latency_error_pct").is_number())
    d.subtitle += " Mean |error| over the compared latency metrics: " +
                  fmt_fixed(validation.at("mean_abs_latency_error_pct").get<double>(), 1) + " %.";
  // Categories: the metrics compared ("ok") in any run, in the record's order.
  std::vector<std::string> keys, labels;
  for (const auto& r : runs)
    for (const auto& row : r.at("validation").at("metrics"))
      if (row.at("status") == "ok" &&
          std::find(keys.begin(), keys.end(), row.at("key").get<std::string>()) == keys.end()) {
        keys.push_back(row.at("key").get<std::string>());
        labels.push_back(row.at("label").get<std::string>());
      }
  Json bars = Json::array(), parity = Json::array();
  double lo = HUGE_VAL, hi = 0;
  ReportTable t{"validation",
                "Predicted vs measured",
                {"run", "metric", "predicted", "measured", "error %", "status", "note"},
                {-1, -1, 2, 2, 1, -1, -1},
                {}};
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string name = runs[i].at("name").get<std::string>();
    Json errs = Json::array(), pts = Json::array();
    for (const auto& k : keys) {
      Json e = nullptr;
      for (const auto& row : runs[i].at("validation").at("metrics"))
        if (row.at("key") == k && row.at("status") == "ok") e = row.at("error_pct");
      errs.push_back(e);
    }
    for (const auto& row : runs[i].at("validation").at("metrics")) {
      t.rows.push_back({name, row.at("label"), row.at("predicted"), row.at("measured"),
                        row.at("error_pct"), row.at("status"), row.value("note", "")});
      if (row.at("status") != "ok") continue;
      const double p = row.at("predicted").get<double>(), m = row.at("measured").get<double>();
      if (p <= 0 || m <= 0) continue;  // a log axis
      pts.push_back({{"x", m}, {"y", p}, {"metric", row.at("label")}});
      lo = std::min({lo, p, m});
      hi = std::max({hi, p, m});
    }
    bars.push_back({{"label", name}, {"data", errs}, {"backgroundColor", series_colour({}, i)}});
    parity.push_back({{"type", "scatter"},
                      {"label", name},
                      {"data", pts},
                      {"borderColor", series_colour({}, i)},
                      {"backgroundColor", series_colour({}, i)},
                      {"pointRadius", 4}});
  }
  d.charts.push_back({"errors", "Error per metric",
                      "Predicted − measured, % of measured, per compared metric and run; dashed: "
                      "±10 %.",
                      error_bars(labels, bars), 380});
  if (hi > 0) {
    // y = x and ±10 % from the smallest to the largest value.
    for (double f : {1.0, 1 + kGuidePct / 100, 1 - kGuidePct / 100})
      parity.push_back({{"type", "line"},
                        {"label", f == 1.0 ? "predicted = measured" : "±10 %"},
                        {"data", {xy(lo, lo * f), xy(hi, hi * f)}},
                        {"borderColor", f == 1.0 ? "#1d2330" : "#9aa3b0"},
                        {"borderDash", f == 1.0 ? Json::array() : Json::array({5, 4})},
                        {"borderWidth", 1},
                        {"pointRadius", 0},
                        {"pdsimNoLegend", f < 1.0}});
    d.charts.push_back(
        {"parity",
         "Predicted against measured",
         "Every compared metric (ms, s, tokens/s on one log scale): on the line is exact.",
         {{"type", "scatter"},
          {"data", {{"datasets", parity}}},
          {"options", chart_options(chart_axis("measured", "logarithmic"),
                                    chart_axis("predicted", "logarithmic"))}},
         380});
  }
  d.tables.push_back(t);
  return d;
}

}  // namespace pdsim

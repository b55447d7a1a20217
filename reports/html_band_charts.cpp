// Charts of series over time and of intervals as bands (declared in html_charts.hpp).
#include "reports/html_charts.hpp"

namespace pdsim {
namespace {

// A colour with alpha (hex #RRGGBB + AA), for bands behind their points.
std::string translucent(const std::string& hex) {
  return hex.size() == 7 ? hex + "55" : hex;
}

}  // namespace

Json lines_chart(const Named<std::vector<std::pair<double, double>>>& series,
                 const std::vector<std::string>& colours, const std::string& x_label,
                 const std::string& y_label) {
  Json ds = Json::array();
  for (size_t i = 0; i < series.size(); ++i) {
    Json pts = Json::array();
    for (const auto& [x, y] : series[i].second) pts.push_back(xy(x, y));
    ds.push_back({{"label", series[i].first},
                  {"data", pts},
                  {"borderColor", series_colour(colours, i)},
                  {"backgroundColor", series_colour(colours, i)},
                  {"pointRadius", 0},
                  {"borderWidth", 1.5}});
  }
  Json y = chart_axis(y_label);
  y["beginAtZero"] = true;
  return {{"type", "line"},
          {"data", {{"datasets", ds}}},
          {"options", chart_options(chart_axis(x_label), y)}};
}

Json interval_chart(const std::vector<std::string>& rows,
                    const Named<std::vector<IntervalBand>>& series,
                    const std::vector<std::string>& colours, const std::string& x_label) {
  Json ds = Json::array();
  for (size_t i = 0; i < series.size(); ++i) {
    Json bands = Json::array(), mids = Json::array();
    for (size_t r = 0; r < rows.size(); ++r) {
      const IntervalBand b = r < series[i].second.size() ? series[i].second[r] : IntervalBand{};
      bands.push_back(b.lo && b.hi ? Json::array({*b.lo, *b.hi}) : Json(nullptr));
      mids.push_back(b.mid ? Json(*b.mid) : Json(nullptr));
    }
    // The band (5–95 %) as a floating bar, its median as a marker on it.
    ds.push_back({{"type", "bar"},
                  {"label", series[i].first + " (5–95 %)"},
                  {"data", bands},
                  {"backgroundColor", translucent(series_colour(colours, i))},
                  {"borderColor", series_colour(colours, i)},
                  {"borderWidth", 1},
                  {"grouped", true}});
    ds.push_back({{"type", "line"},
                  {"label", series[i].first + " (median)"},
                  {"data", mids},
                  {"showLine", false},
                  {"pointStyle", "line"},
                  {"pointRadius", 9},
                  {"pointBorderWidth", 3},
                  {"borderColor", series_colour(colours, i)},
                  {"backgroundColor", series_colour(colours, i)},
                  {"pdsimNoLegend", true}});
  }
  Json labels = Json::array();
  for (const auto& r : rows) labels.push_back(r);
  Json options = chart_options(chart_axis(x_label), {{"type", "category"}});
  options["indexAxis"] = "y";
  return {{"type", "bar"}, {"data", {{"labels", labels}, {"datasets", ds}}}, {"options", options}};
}

}  // namespace pdsim

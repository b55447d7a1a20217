// serving_fit_report_doc (html_validation_report.hpp): the serving fit as a page.
#include <cmath>

#include "reports/html_charts.hpp"
#include "reports/html_validation_report.hpp"
#include "sim/fit/loo_interval.hpp"

namespace pdsim {
namespace {

double err_pct(const Residual& r) {
  return (r.predicted / r.measured - 1) * 100;
}

Json num(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

// A fit that did not converge has no optimum: no values, no standard errors.
double at(const std::vector<double>& v, size_t j) {
  return j < v.size() ? v[j] : std::nan("");
}

ReportTable parameter_table(const ServingFitResult& fit) {
  ReportTable t{"parameters",
                "Fitted parameters",
                {"parameter", "value", "std err", "90 % low", "90 % high", "range low",
                 "range high", "start", "profile"},
                {-1, 4, 4, 4, 4, 3, 3, 4, -1},
                {}};
  for (size_t j = 0; j < fit.params.size(); ++j) {
    const auto& p = fit.params[j];
    const double v = at(fit.theta, j), se = at(fit.uncertainty.se, j);
    t.rows.push_back({p.path, num(v), num(se), num(v - kZ90 * se), num(v + kZ90 * se), p.lo, p.hi,
                      p.start, p.profile});
  }
  return t;
}

}  // namespace

ReportDoc serving_fit_report_doc(const ValidationSet& set, const ServingFitResult& fit) {
  ReportDoc d;
  d.title = "pdsim calibrate serving: " + set.name;
  d.subtitle = std::string(fit.converged ? "Converged" : "Did not converge") + " after " +
               std::to_string(fit.evaluations) + " evaluations (NLopt " + fit.status + "), " +
               std::to_string(fit.residuals.size()) + " fitted metrics, " +
               std::to_string(fit.warnings.size()) + " warnings on its quality.";
  // Error per (run, metric): the profiles alone, fitted, left out with its 90 % band.
  std::vector<std::string> labels;
  Json start = Json::array(), fitted = Json::array(), left = Json::array(), band = Json::array();
  ReportTable res{"residuals",
                  "Residuals (the fitted metrics)",
                  {"run", "metric", "measured", "profiles alone err %", "fitted err %",
                   "left out err %", "left-out 90 % low", "left-out 90 % high", "inside"},
                  {-1, -1, 2, 1, 1, 1, 1, 1, -1},
                  {}};
  for (size_t i = 0; i < fit.residuals.size(); ++i) {
    const Residual& r = fit.residuals[i];
    labels.push_back(set.runs[r.run].name + " · " + r.metric);
    start.push_back(i < fit.start_residuals.size() ? Json(err_pct(fit.start_residuals[i]))
                                                   : Json(nullptr));
    fitted.push_back(err_pct(r));
    Json lo = nullptr, hi = nullptr, out = nullptr, inside = nullptr;
    for (const auto& l : fit.loo)
      for (size_t k = 0; k < l.residuals.size(); ++k)
        if (l.residuals[k].run == r.run && l.residuals[k].metric == r.metric) {
          out = err_pct(l.residuals[k]);
          if (k < l.spread.size() && std::isfinite(l.spread[k].sigma)) {
            const auto iv = l.spread[k].error_pct_90(l.residuals[k].predicted, r.measured);
            lo = iv[0];
            hi = iv[1];
            inside = l.spread[k].inside_90(l.residuals[k].log_ratio) ? "yes" : "NO";
          }
        }
    left.push_back(out);
    band.push_back(lo.is_number() ? Json::array({lo, hi}) : Json(nullptr));
    res.rows.push_back({set.runs[r.run].name, r.metric, r.measured, start.back(), err_pct(r), out,
                        lo, hi, inside});
  }
  Json ds = Json::array();
  ds.push_back({{"label", "profiles alone"}, {"data", start}, {"backgroundColor", "#9aa3b0"}});
  ds.push_back({{"label", "fitted"}, {"data", fitted}, {"backgroundColor", "#0072B2"}});
  if (!fit.loo.empty()) {
    ds.push_back({{"label", "left out"}, {"data", left}, {"backgroundColor", "#E69F00"}});
    ds.push_back({{"label", "left out, 90 % interval"},
                  {"data", band},
                  {"backgroundColor", "#E69F0044"},
                  {"borderColor", "#E69F00"},
                  {"borderWidth", 1}});
  }
  add_error_guides(ds, labels.size());
  d.charts.push_back(
      {"fit-errors",
       "Error per run and metric",
       "Predicted − measured, % of measured: with the profiles alone, after the "
       "fit, and predicted by a fit without that run" +
           (fit.leave_out_by == "run" ? std::string()
                                      : " and every run of the same " + fit.leave_out_by) +
           " (its 90 % interval as a band).",
       {{"type", "bar"},
        {"data", {{"labels", labels}, {"datasets", ds}}},
        {"options",
         chart_options({{"type", "category"}}, chart_axis("error % (predicted vs measured)"))}},
       420});
  // Each parameter within its range: value and 90 % interval as a fraction of [lo, hi].
  std::vector<std::string> rows;
  std::vector<IntervalBand> bands;
  for (size_t j = 0; j < fit.params.size(); ++j) {
    const auto& p = fit.params[j];
    const double w = p.hi - p.lo, v = at(fit.theta, j), se = at(fit.uncertainty.se, j);
    if (!std::isfinite(v)) continue;
    rows.push_back(p.path);
    IntervalBand b{std::nullopt, (v - p.lo) / w, std::nullopt};
    if (std::isfinite(se)) {
      b.lo = (v - kZ90 * se - p.lo) / w;
      b.hi = (v + kZ90 * se - p.lo) / w;
    }
    bands.push_back(b);
  }
  if (!rows.empty())
    d.charts.push_back(
        {"fit-parameters", "Parameters within their --fit ranges",
         "Value (mark) and 90 % interval (band, ±1.645 standard errors) as a "
         "fraction of the range: 0 = LO, 1 = HI; beyond it the data do not pin "
         "the parameter.",
         interval_chart(rows, {{"fit", bands}}, {"#0072B2"}, "fraction of the --fit range"),
         160 + 46 * static_cast<int>(rows.size())});
  d.tables.push_back(parameter_table(fit));
  d.tables.push_back(res);
  ReportTable warn{"warnings", "Warnings on the fit's quality", {"kind", "warning"}, {-1, -1}, {}};
  for (const auto& w : fit.warnings) warn.rows.push_back({w.kind, w.text});
  if (!warn.rows.empty()) d.tables.push_back(warn);
  return d;
}

}  // namespace pdsim

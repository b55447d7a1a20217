// The run / compare page's account of where each prediction stands relative to the calibration
// corpus: the summary's pdsim.envelope (sim/fit/envelope.hpp) as four tables placed right after
// the metrics, since they qualify every number in them.
#include <cmath>

#include "reports/envelope_report.hpp"
#include "reports/html_run_sections.hpp"
#include "reports/validate.hpp"
#include "sim/fit/loo_interval.hpp"

namespace pdsim {
namespace {

const Json* envelope_of(const RunView& r) {
  if (!r.summary.contains("pdsim") || !r.summary["pdsim"].contains("envelope")) return nullptr;
  return &r.summary["pdsim"]["envelope"];
}

std::string differs_cell(const Json& differs) {
  std::string s;
  for (const auto& g : differs)
    s += (s.empty() ? "" : "; ") + g.value("label", "") + " " + g.value("value", "") +
         " (measured " + g.value("measured", "") + ")";
  return s.empty() ? "-" : s;
}

}  // namespace

void add_envelope_sections(ReportDoc& d, const std::vector<RunView>& runs) {
  ReportTable verdict{"envelope",
                      "Where the prediction stands: the calibration corpus's nearest measured "
                      "deployment and what differs from it",
                      {"run", "verdict", "nearest measured runs", "differs"},
                      {-1, -1, -1, -1},
                      {}};
  ReportTable iv{"envelope_intervals",
                 "90 % interval from the corpus (outside: the spread of an applied fit's "
                 "left-out deployments where the prediction recombines them, else the spread "
                 "between deployments no fit saw; inside an unfitted deployment: its own error; "
                 "inside a fitted one: the fit's residuals there)",
                 {"run", "metric", "predicted", "low", "high", "factor", "from"},
                 {-1, -1, 2, 2, 2, 2, -1},
                 {}};
  ReportTable params{"extrapolated_parameters",
                     "Fitted parameters used beyond the runs they were fitted to",
                     {"run", "parameter", "overlay", "differs"},
                     {-1, -1, -1, -1},
                     {}};
  ReportTable held{"held_parameters",
                   "Decode all-to-all parameters no applied fit set: held at the profile's "
                   "value, chosen by no measured run of this deployment (e.g. the in-serving "
                   "fixed cost fixed_us); a shipped fit on other runs may have chosen another",
                   {"run", "parameter", "value", "prior low", "prior high", "prior basis",
                    "fitted on other runs (not applied)"},
                   {-1, -1, 3, 3, 3, -1, -1},
                   {}};
  ReportTable folds{"overlay_spreads",
                    "Applied fits' left-out errors (sim/fit/fold_spread.hpp): they give the "
                    "interval outside the corpus when the prediction recombines what the folds "
                    "predicted",
                    {"run", "overlay", "left out by", "family", "tau", "factor", "runs",
                     "inside when left out", "used", "why not"},
                    {-1, -1, -1, -1, 3, 2, 0, -1, -1, -1},
                    {}};
  for (const auto& r : runs) {
    const Json* e = envelope_of(r);
    if (!e) continue;
    const Json& n = (*e)["nearest"];
    std::string nearest;
    for (const auto& x : n["runs"]) nearest += (nearest.empty() ? "" : ", ") + x.get<std::string>();
    verdict.rows.push_back({r.name,
                            (*e)["inside"].get<bool>() ? "inside" : "OUTSIDE what was measured",
                            nearest, differs_cell(n["differs"])});
    const Json& ivs = (*e)["interval_90"];
    for (const std::string& key : envelope_headline_metrics()) {
      if (!ivs.contains(key)) continue;
      const Json& m = ivs[key];
      iv.rows.push_back({r.name, bench_metric_label(key), r.summary.value(key, 0.0), m["lo"],
                         m["hi"], std::exp(kZ90 * m["sigma_log"].get<double>()),
                         m.value("family", "") + ": " + m.value("basis", "") +
                             (m.value("overlay", Json()).is_string()
                                  ? " (" + m["overlay"].get<std::string>() + ")"
                                  : std::string()) +
                             ", " + std::to_string(m.value("runs", 0)) + " runs"});
    }
    for (const auto& p : (*e)["parameters"])
      if (p.value("extrapolated", false))
        params.rows.push_back({r.name, p.value("parameter", ""), p.value("overlay", ""),
                               p.value("fit_runs_in_corpus", false)
                                   ? differs_cell(p["differs"])
                                   : std::string("its fit runs are not in the corpus")});
    for (const auto& o : e->value("overlay_spreads", Json::array()))
      for (const auto& f : o.value("families", Json::array()))
        folds.rows.push_back({r.name, o.value("overlay", ""), o.value("leave_out_by", ""),
                              f.value("family", ""), f["tau"],
                              std::exp(kZ90 * f["tau"].get<double>()), f["runs"],
                              std::to_string(f.value("inside_90_left_out", 0)) + " of " +
                                  std::to_string(f.value("runs", 0)),
                              o.value("covers", false) ? "yes" : "no", o.value("gap", "")});
    for (const auto& h : e->value("held_parameters", Json::array())) {
      const Json pr = h.value("prior", Json());
      const bool has = pr.is_object();
      std::string elsewhere;
      for (const auto& f : h.value("fitted_elsewhere", Json::array()))
        elsewhere += (elsewhere.empty() ? "" : "; ") + fitted_value_text(f) + " (" +
                     f.value("overlay", "") + ")";
      held.rows.push_back({r.name, h.value("parameter", ""), h.value("value", 0.0),
                           has ? pr["lower"] : Json(), has ? pr["upper"] : Json(),
                           has ? pr.value("basis", "") : "no published figure",
                           elsewhere.empty() ? std::string("-") : elsewhere});
    }
  }
  if (verdict.rows.empty()) return;
  std::vector<ReportTable> add = {verdict};
  if (!iv.rows.empty()) add.push_back(iv);
  if (!folds.rows.empty()) add.push_back(folds);
  if (!params.rows.empty()) add.push_back(params);
  if (!held.rows.empty()) add.push_back(held);
  const auto at = d.tables.empty() ? d.tables.end() : d.tables.begin() + 1;
  d.tables.insert(at, add.begin(), add.end());
}

}  // namespace pdsim

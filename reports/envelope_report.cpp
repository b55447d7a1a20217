#include "reports/envelope_report.hpp"

#include <cmath>
#include <cstdio>

#include "reports/validate.hpp"

namespace pdsim {
namespace {

std::string differs_text(const Json& differs, const std::string& indent) {
  std::string s;
  for (const auto& g : differs) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s%-32s %s (measured: %s)\n", indent.c_str(),
                  g.value("label", "").c_str(), g.value("value", "").c_str(),
                  g.value("measured", "").c_str());
    s += buf;
  }
  return s;
}

}  // namespace

const std::vector<std::string>& envelope_headline_metrics() {
  static const std::vector<std::string> m = {"mean_ttft_ms",      "mean_tpot_ms",
                                             "mean_itl_ms",       "mean_e2e_latency_ms",
                                             "output_throughput", "duration"};
  return m;
}

std::string fitted_value_text(const Json& f) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.4g", f.value("value", 0.0));
  std::string s = buf;
  const Json se = f.value("std_error", Json());
  if (se.is_number()) {
    std::snprintf(buf, sizeof buf, " ± %.3g", se.get<double>());
    s += buf;
  }
  return s;
}

std::string envelope_text(const Json& e) {
  if (!e.is_object() || !e.contains("inside")) return "";
  const Json& n = e["nearest"];
  std::string s = "Envelope (" + e.value("corpus", "") + ", " +
                  std::to_string(e.value("corpus_runs", 0)) + " measured runs): ";
  const size_t runs = n["runs"].size();
  const std::string first = runs ? n["runs"][0].get<std::string>() : "";
  const std::string more = runs > 1 ? " and " + std::to_string(runs - 1) + " more" : "";
  if (e["inside"].get<bool>())
    s += "inside — the corpus measured this deployment (" + first + more +
         (n.value("fitted", false) ? "; a fit used them" : "; no fit used them") + ")\n";
  else
    s += "OUTSIDE what was measured; nearest measured deployment " + first + more +
         " differs in:\n" + differs_text(n["differs"], "  ");
  bool head = false;
  for (const auto& p : e["parameters"]) {
    if (!p.value("extrapolated", false)) continue;
    if (!head) s += "  Fitted parameters used beyond their fit runs:\n";
    head = true;
    s += "    " + p.value("parameter", "") + " (" + p.value("overlay", "") + ")" +
         (p.value("fit_runs_in_corpus", false) ? ":\n" : ": its fit runs are not in the corpus\n");
    s += differs_text(p["differs"], "      ");
  }
  // Both sides of a comparison say which all-to-all terms a measured run chose (issue 27, item 6).
  const Json held = e.value("held_parameters", Json::array());
  if (!held.empty()) {
    s += "  Decode all-to-all parameters no applied fit set (held at the profile's value; no "
         "measured run of this deployment chose them):\n";
    for (const auto& h : held) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "    %-44s %g  ", h.value("parameter", "").c_str(),
                    h.value("value", 0.0));
      s += buf;
      const Json& pr = h["prior"];
      if (pr.is_object()) {
        std::snprintf(buf, sizeof buf,
                      "(prior %g–%g from published serving figures; --param-samples draws it)\n",
                      pr.value("lower", 0.0), pr.value("upper", 0.0));
        s += buf;
      } else {
        s += "(no published figure)\n";
      }
      // A fit on other runs chose a value for this very field: the user sees both.
      for (const auto& f : h.value("fitted_elsewhere", Json::array()))
        s += "      fitted " + fitted_value_text(f) + " by " + f.value("overlay", "") +
             " on its own runs, not applied here\n";
    }
  }
  const Json& iv = e["interval_90"];
  if (iv.empty()) {
    s += e["inside"].get<bool>()
             ? "  No interval from the corpus: a fit used these runs and compared none of these "
               "metrics there (--param-samples gives the fit's own)\n"
             : "  No interval: the corpus has no out-of-sample spread for these metrics\n";
    return s;
  }
  const bool residuals = e["nearest"].value("fitted", false);
  bool from_folds = false;
  for (const auto& m : iv) from_folds = from_folds || m.value("overlay", Json()).is_string();
  s += !e["inside"].get<bool>()
           ? (from_folds ? "  90 % interval: the spread of the error on deployments a fit left out "
                           "(an overlay's folds; see each line), else between deployments no fit "
                           "saw:\n"
                         : "  90 % interval: the spread of the error between deployments no fit "
                           "saw:\n")
       : residuals
           ? "  90 % interval: the fit's residuals on this deployment's runs (in-sample; "
             "--param-samples adds the parameters' own uncertainty):\n"
           : "  90 % interval: this deployment's own error in the corpus (it was not fitted to):\n";
  // The headline metrics; summary.json's pdsim.envelope.interval_90 has every one.
  for (const std::string& key : envelope_headline_metrics()) {
    if (!iv.contains(key)) continue;
    const Json& m = iv[key];
    char buf[320];
    const Json overlay = m.value("overlay", Json());
    const std::string family =
        m.value("family", "") +
        (overlay.is_string() ? "; left out of " + overlay.get<std::string>() + "'s fit" : "");
    std::snprintf(buf, sizeof buf,
                  "    %-28s %10.2f to %10.2f   x/ %.2f  (%s; %d runs, %d deployment(s))\n",
                  bench_metric_label(key).c_str(), m["lo"].get<double>(), m["hi"].get<double>(),
                  std::exp(1.6448536269514722 * m["sigma_log"].get<double>()), family.c_str(),
                  m.value("runs", 0), m.value("deployments", 0));
    s += buf;
  }
  for (const auto& o : e.value("overlay_spreads", Json::array()))
    if (!o.value("covers", true) && !o.value("families", Json::array()).empty())
      s += "  Not from the left-out deployments of " + o.value("overlay", "") +
           "'s fit: " + o.value("gap", "") + "\n";
  return s;
}

}  // namespace pdsim

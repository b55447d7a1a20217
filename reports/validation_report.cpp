#include "reports/validation_report.hpp"

#include <cmath>
#include <map>
#include <set>

#include "reports/text_format.hpp"
#include "reports/validate.hpp"
#include "sim/core/stats.hpp"
#include "sim/core/text_align.hpp"
#include "sim/fit/fold_spread.hpp"
#include "sim/fit/loo_interval.hpp"

namespace pdsim {
namespace {

std::string signed_pct(double e) {
  return (e >= 0 ? "+" : "") + fmt_fixed(e, 1);
}

// A group's fold in one line: what a user predicting that deployment anew would have met.
std::string fold_summary(const LeaveOneOut& l) {
  std::vector<double> abs_err;
  double worst = 0;
  int known = 0, inside = 0;
  for (size_t i = 0; i < l.residuals.size(); ++i) {
    const auto& r = l.residuals[i];
    const double e = (r.predicted / r.measured - 1) * 100;
    abs_err.push_back(std::fabs(e));
    if (std::fabs(e) > std::fabs(worst)) worst = e;
    if (i < l.spread.size() && std::isfinite(l.spread[i].sigma)) {
      ++known;
      inside += l.spread[i].inside_90(r.log_ratio) ? 1 : 0;
    }
  }
  if (abs_err.empty()) return "";
  const double median = percentile_of(abs_err, 50);
  std::set<size_t> compared;  // runs of the group with a metric to compare (not all have one)
  for (const auto& r : l.residuals) compared.insert(r.run);
  return "  left out " + l.label + ": " + std::to_string(compared.size()) + " of its " +
         std::to_string(l.runs.size()) + " runs compared, median |error| " + fmt_fixed(median, 1) +
         " %, worst " + signed_pct(worst) + " %, " +
         (known == 0 ? std::string("no 90 % interval (the linear picture has none)")
                     : "inside the 90 % interval " + std::to_string(inside) + " of " +
                           std::to_string(known)) +
         "\n";
}

}  // namespace

Json validate_set_json(const ValidationSet& set, const std::vector<Json>& predicted) {
  Json runs = Json::array();
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < set.runs.size(); ++i) {
    const ValidationRun& r = set.runs[i];
    const Json v = validate_against(predicted[i], r.measured, r.excluded);
    for (const auto& row : v.at("metrics"))
      if (row.at("status") == "ok" && row.at("error_pct").is_number() &&
          std::string(row.at("key")).size() > 3 &&
          std::string(row.at("key")).compare(std::string(row.at("key")).size() - 3, 3, "_ms") ==
              0) {
        sum += std::fabs(row.at("error_pct").get<double>());
        ++n;
      }
    runs.push_back({{"name", r.name}, {"measured_file", r.measured_file}, {"validation", v}});
  }
  return {{"set", set.name},
          {"runs", runs},
          {"latency_metrics_compared", n},
          {"mean_abs_latency_error_pct", n > 0 ? Json(sum / n) : Json(nullptr)}};
}

std::string validate_set_text(const ValidationSet& set, const Json& validation) {
  const Json& runs = validation.at("runs");
  std::string o = "Validation set " + set.name + ": predicted vs measured, % error (" +
                  std::to_string(runs.size()) + " runs)\n";
  const size_t w = 28, cw = 10;
  o += pad("", w, true);
  for (const auto& r : runs) o += "  " + pad(r.at("name").get<std::string>(), 3 * cw, true);
  o += "\n" + pad("metric", w, true);
  for (size_t k = 0; k < runs.size(); ++k)
    o += "  " + pad("predicted", cw) + pad("measured", cw) + pad("error %", cw);
  o += "\n";
  std::map<std::string, std::vector<std::string>> why;  // reason → "run: metric"
  const Json& first = runs.at(0).at("validation").at("metrics");
  for (size_t m = 0; m < first.size(); ++m) {
    o += pad(first[m].at("label").get<std::string>(), w, true);
    for (const auto& r : runs) {
      const Json& row = r.at("validation").at("metrics")[m];
      const int d = row.at("decimals").get<int>();
      auto cell = [&](const Json& x) {
        return x.is_number() ? fmt_fixed(x.get<double>(), d) : std::string("n/a");
      };
      const std::string status = row.at("status");
      o += "  " + pad(cell(row.at("predicted")), cw) + pad(cell(row.at("measured")), cw);
      if (status == "ok") {
        o += pad(signed_pct(row.at("error_pct").get<double>()), cw);
      } else {
        o += pad(status == "untrustworthy" ? "artefact" : status, cw);
        if (status != "missing")
          why[status + ": " + row.at("note").get<std::string>()].push_back(
              r.at("name").get<std::string>() + " " + row.at("key").get<std::string>());
      }
    }
    o += "\n";
  }
  if (validation.at("mean_abs_latency_error_pct").is_number())
    o += "Mean |error| over " +
         std::to_string(validation.at("latency_metrics_compared").get<int>()) +
         " compared latency metrics: " +
         fmt_fixed(validation.at("mean_abs_latency_error_pct").get<double>(), 1) + "%\n";
  if (!why.empty()) o += "Not compared:\n";
  for (const auto& [reason, where] : why) {
    std::string list;
    for (const auto& w2 : where) list += (list.empty() ? "" : ", ") + w2;
    o += "  " + reason + "\n    (" + list + ")\n";
  }
  bool first_fit_note = true;
  for (const auto& run : set.runs)
    for (const auto& [metric, reason] : run.fit_excluded) {
      if (first_fit_note) o += "Compared, but not fitted to by `pdsim calibrate serving`:\n";
      first_fit_note = false;
      o += "  " + run.name + " " + metric + ": " + reason + "\n";
    }
  for (const auto& r : runs)
    for (const auto& mm : r.at("validation").at("workload_mismatches"))
      o += "warning: " + r.at("name").get<std::string>() + " workload differs, " +
           mm.at("key").get<std::string>() + " predicted " + mm.at("predicted").dump() +
           ", measured " + mm.at("measured").dump() + "\n";
  return o;
}

// The spread of the left-out errors that `pdsim run` puts on a prediction recombining these
// deployments, and how it holds when each fold is left out of it.
std::string fold_spread_text(const FoldSpread& s) {
  std::string o;
  for (const auto& f : s.families) {
    if (f.tau <= 0) continue;
    o += "  spread of the left-out errors, " + f.family + ": tau " + fmt_fixed(f.tau, 3) +
         " (90 % interval x/ " + fmt_fixed(std::exp(kZ90 * f.tau), 2) + ") over " +
         std::to_string(f.groups.size()) + " folds, " + std::to_string(f.runs) +
         " runs; each fold against the others' spread: " + std::to_string(f.inside_90()) + " of " +
         std::to_string(f.runs) + " inside\n";
  }
  if (!o.empty())
    o += "  (`pdsim run` gives that interval to a deployment these folds could have left out: "
         "sim/fit/fold_spread.hpp)\n";
  return o;
}

std::string serving_fit_text(const ValidationSet& set, const ServingFitResult& fit) {
  std::string o;
  // Converging says only that the optimiser stopped; the warnings say whether the fit is usable.
  o += "Serving fit on " + set.name + ": " + (fit.converged ? "converged" : "did not converge") +
       " after " + std::to_string(fit.evaluations) + " evaluations (NLopt " + fit.status + "), " +
       std::to_string(fit.residuals.size()) + " compared metrics";
  if (!fit.converged) {
    o += "\nThe optimiser did not converge: no overlay written.\n";
    return o;
  }
  o += fit.warnings.empty()
           ? "; no warning on its quality\n"
           : "; " + std::to_string(fit.warnings.size()) + " warnings on its quality (below)\n";
  o += pad("parameter", 46, true) + pad("value", 12) + pad("std err", 12) + pad("range", 22) +
       pad("start", 12) + "\n";
  for (size_t j = 0; j < fit.params.size(); ++j) {
    const auto& p = fit.params[j];
    const double se = fit.uncertainty.se[j];
    o += pad(p.path, 46, true) + pad(fmt_fixed(fit.theta[j], 4), 12) +
         pad(std::isfinite(se) ? fmt_fixed(se, 4) : "n/a", 12) +
         pad("[" + fmt_fixed(p.lo, 3) + ", " + fmt_fixed(p.hi, 3) + "]", 22) +
         pad(fmt_fixed(p.start, 4), 12) + (p.fabric_specific() ? "  (fabric)" : "") + "\n";
  }
  if (fit.minima.size() > 1) {
    o += "start points (the lowest minimum is kept):\n";
    for (size_t i = 0; i < fit.minima.size(); ++i) {
      std::string at;
      for (double v : fit.minima[i].theta) at += (at.empty() ? "" : ", ") + fmt_fixed(v, 4);
      o += "  " + std::to_string(i + 1) + (i == fit.best_start ? " *" : "  ") +
           " sum of squared log errors " + fmt_fixed(fit.minima[i].sse, 5) + " at (" + at + ")" +
           (fit.minima[i].converged ? "" : " (did not converge)") + "\n";
    }
  }
  if (fit.params.size() > 1 && fit.uncertainty.corr.rows() > 0) {
    o += "correlations:\n";
    for (size_t i = 0; i < fit.params.size(); ++i)
      for (size_t j = i + 1; j < fit.params.size(); ++j) {
        const double c =
            fit.uncertainty.corr(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
        if (std::isfinite(c) && std::fabs(c) >= 0.5)
          o += "  " + fit.params[i].path + " ~ " + fit.params[j].path + ": " + fmt_fixed(c, 3) +
               "\n";
      }
  }
  o += pad("run", 22, true) + pad("metric", 22, true) + pad("measured", 12) +
       pad("start err%", 12) + pad("fitted err%", 12) + "\n";
  for (size_t i = 0; i < fit.residuals.size(); ++i) {
    const auto& r = fit.residuals[i];
    const auto& s = fit.start_residuals[i];
    o += pad(set.runs[r.run].name, 22, true) + pad(r.metric, 22, true) +
         pad(fmt_fixed(r.measured, 2), 12) +
         pad(signed_pct((s.predicted / s.measured - 1) * 100), 12) +
         pad(signed_pct((r.predicted / r.measured - 1) * 100), 12) + "\n";
  }
  if (!fit.loo.empty()) {
    o += fit.leave_out_by == "run"
             ? "leave-one-out (fit on the other runs, predict the one left out):\n"
             : "leave one group out, by " + fit.leave_out_by +
                   " (fit on the other groups, predict the runs left out):\n";
    o += pad("left out", 22, true) + pad("metric", 22, true) + pad("measured", 12) +
         pad("predicted", 12) + pad("error %", 10) + pad("90 % interval of error %", 27) +
         pad("held share", 12) + "\n";
    for (const auto& l : fit.loo) {
      for (size_t i = 0; i < l.residuals.size(); ++i) {
        const auto& r = l.residuals[i];
        const LooSpread sp = i < l.spread.size() ? l.spread[i] : LooSpread{HUGE_VAL, 0, 0, 0};
        const double sig = sp.sigma;
        const auto interval = sp.error_pct_90(r.predicted, r.measured);
        o += pad(set.runs[r.run].name, 22, true) + pad(r.metric, 22, true) +
             pad(fmt_fixed(r.measured, 2), 12) + pad(fmt_fixed(r.predicted, 2), 12) +
             pad(signed_pct((r.predicted / r.measured - 1) * 100), 10) +
             (std::isfinite(sig)
                  ? pad("[" + signed_pct(interval[0]) + ", " + signed_pct(interval[1]) + "]", 19) +
                        (sp.inside_90(r.log_ratio) ? "  inside" : " OUTSIDE") +
                        pad(sig > 0 ? fmt_fixed(100 * sp.held / (sig * sig), 0) + " %" : "0 %", 12)
                  : pad("n/a", 19)) +
             "\n";
      }
      if (!l.held.empty()) {
        std::string h;
        for (const auto& x : l.held) h += (h.empty() ? "" : ", ") + x;
        o += "  (without " + l.label + ", held at the profile's value: " + h + ")\n";
      }
      if (l.runs.size() > 1) o += fold_summary(l);
      if (!l.converged) o += "  (that fit did not converge)\n";
    }
    o += "  (interval: the fold's linear picture, sim/fit/loo_interval.hpp: its refitted "
         "parameters' covariance, each held parameter uniform over its --fit range, the residual "
         "scatter; held share: the part of its variance from the held parameters)\n";
    o += fold_spread_text(fold_spread(fit.overlay.doc.value("fit", Json::object())));
  }
  // Last, where the eye lands after the tables (and in the overlay's fit.warnings).
  for (const auto& w : fit.warnings) o += "warning (" + w.kind + "): " + w.text + "\n";
  return o;
}

}  // namespace pdsim

#include "sim/fit/serving_fit.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fit/fit_evaluator.hpp"
#include "sim/fit/fit_starts.hpp"
#include "sim/fit/set_predictor.hpp"

namespace pdsim {
namespace {

Json residuals_json(const ValidationSet& set, const std::vector<Residual>& rs) {
  Json a = Json::array();
  for (const auto& r : rs)
    a.push_back({{"run", set.runs[r.run].name},
                 {"metric", r.metric},
                 {"predicted", r.predicted},
                 {"measured", r.measured},
                 {"log_ratio", r.log_ratio},
                 {"error_pct", (r.predicted / r.measured - 1.0) * 100.0}});
  return a;
}

Json matrix_json(const Eigen::MatrixXd& m) {
  Json a = Json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    Json row = Json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      row.push_back(std::isfinite(m(i, j)) ? Json(m(i, j)) : Json(nullptr));
    a.push_back(row);
  }
  return a;
}

}  // namespace

ServingFitResult fit_serving(const ValidationSet& set, const ServingFitOptions& opt) {
  auto say = [&](const std::string& s) {
    if (opt.progress) opt.progress(s);
  };
  const std::vector<std::string> metrics =
      opt.metrics.empty() ? default_fit_metrics() : opt.metrics;
  ServingFitResult res;
  if (opt.fit.empty()) throw InputError("--fit", "", "expected at least one PATH=LO:HI");
  std::set<std::string> seen;
  for (const auto& spec : opt.fit) {
    res.params.push_back(parse_fit_parameter(spec));
    if (!seen.insert(res.params.back().path).second)
      throw InputError("--fit", spec, "the parameter is given twice");
  }
  SetPredictor pred(set, opt.seed, opt.jobs);
  std::vector<const Deployment*> deps;
  std::vector<std::string> names;
  for (size_t i = 0; i < set.runs.size(); ++i) {
    deps.push_back(&pred.deployments()[i]);
    names.push_back(set.runs[i].name);
  }
  for (auto& p : res.params) bind_fit_parameter(p, deps, names);
  // Before the fit (minutes): an unknown grouping is refused now.
  const std::vector<LeaveOutGroup> folds =
      opt.leave_one_out && set.runs.size() > 1
          ? leave_out_groups(set, pred.deployments(), opt.leave_out_by)
          : std::vector<LeaveOutGroup>{};
  for (size_t i = 0; i < deps.size(); ++i)
    if (deps[i]->profiles.contains("profile_overlays"))
      say("warning: run " + names[i] +
          " applies profile overlays: the fit starts from their values and leave-one-out holds "
          "parameters at them (add \"profile_overlays=[]\" to the set to fit the profiles alone)");
  // Both ends of every range must be values the profile accepts (checked on a run that uses it).
  for (size_t j = 0; j < res.params.size(); ++j)
    for (const double v : {res.params[j].lo, res.params[j].hi}) {
      std::vector<double> theta;
      for (const auto& p : res.params) theta.push_back(p.start);
      theta[j] = v;
      const ValidationRun& run = set.runs[res.params[j].run];
      build_deployment(load_scenario(run.scenario, run.sets),
                       {make_overlay(res.params, theta, "range check", Json(), Json())});
    }
  Evaluator ev(pred, res.params, metrics, opt.loss);
  const std::vector<size_t> all = pred.all_runs();
  std::vector<double> theta0, range;
  std::vector<std::string> paths;
  for (const auto& p : res.params) {
    theta0.push_back(p.start);
    range.push_back(p.hi - p.lo);
    paths.push_back(p.path);
  }
  res.start_residuals = ev.eval1(all, theta0);
  say("start: " + std::to_string(res.start_residuals.size()) +
      " metrics to fit, sum of squared log errors " +
      std::to_string(sum_of_squares(res.start_residuals)));
  if (res.start_residuals.size() < res.params.size() + 1)
    throw InputError("--fit", "",
                     "the runs give " + std::to_string(res.start_residuals.size()) +
                         " metrics to fit, too few for " + std::to_string(res.params.size()) +
                         " parameters (at least one more than parameters)");
  Eigen::MatrixXd J0 = jacobian_at(ev, all, theta0, 0.05);
  const std::vector<size_t> plateau =
      widen_flat_columns(ev, all, theta0, J0, 1e-3);  // the 0.1 % of identifiability_problems
  const auto problems = identifiability_problems(J0, paths, range);
  if (!problems.empty()) {
    std::string msg = "the runs cannot identify";
    for (const auto& pr : problems) msg += "\n  " + pr;
    throw InputError("--fit", "", msg + "\n(fit fewer parameters, or add runs that move them)");
  }
  std::vector<size_t> free_all;
  for (size_t j = 0; j < res.params.size(); ++j) free_all.push_back(j);
  res.starts = fit_starts(res.params, opt.starts);
  const MultiStartMinimum ms =
      minimize_from(ev, all, free_all, res.starts, opt.max_evaluations, opt.progress);
  const Minimum& m = ms.best;
  res.minima = ms.minima;
  res.best_start = ms.best_start;
  if (res.starts.size() > 1)
    for (size_t i = 0; i < ms.minima.size(); ++i)
      say("start " + std::to_string(i + 1) + ": sum of squared log errors " +
          std::to_string(ms.minima[i].sse) + (i == ms.best_start ? " (kept)" : "") +
          (opt.loss.kind == LossKind::l2 ? "" : " (" + opt.loss.label() + ")"));
  res.theta = m.theta;
  res.status = m.status;
  res.converged = m.converged;
  res.evaluations = ev.evaluations();
  res.residuals = ev.eval1(all, m.theta);
  res.sse = sum_of_squares(res.residuals);
  say("optimiser: " + m.status + " after " + std::to_string(ev.evaluations()) +
      " evaluations, sum of squared log errors " + std::to_string(res.sse));
  // Flat where it started, yet not end to end: a fit that never left the plateau found nothing.
  for (size_t j : plateau)
    if (res.theta[j] == theta0[j])
      say("warning: " + paths[j] +
          " stayed at its start value, where the metrics do not depend on it (they do across its "
          "range): try --starts N or another range");
  if (!res.converged) return res;
  const Eigen::MatrixXd J = jacobian_at(ev, all, res.theta, 0.01);
  res.uncertainty = parameter_uncertainty(J, res.sse);
  res.leave_out_by = opt.leave_out_by;
  for (const auto& g : folds) {
    // A fold whose runs compare none of the metrics predicts nothing.
    const bool compares = std::any_of(g.runs.begin(), g.runs.end(), [&](size_t k) {
      return std::any_of(metrics.begin(), metrics.end(),
                         [&](const std::string& x) { return set.runs[k].comparable(x); });
    });
    if (!compares) continue;
    say("leave-one-out: fitting without " + g.label +
        (g.runs.size() > 1 ? " (" + std::to_string(g.runs.size()) + " runs)" : ""));
    res.loo.push_back(leave_one_out(ev, g, res.starts, J, res.residuals, opt.max_evaluations));
  }
  res.evaluations = ev.evaluations();
  res.warnings =
      fit_quality_warnings(set, res.params, res.theta, res.uncertainty, res.residuals, res.loo);

  // The overlay: the fitted fields, the fit as provenance.
  Json runs = Json::array();
  for (const auto& r : set.runs)
    runs.push_back({{"name", r.name},
                    {"scenario", relative_to_data(r.scenario)},
                    {"set", r.sets},
                    {"measured", relative_to_data(r.measured_file)}});
  Json specific = Json::array(), independent = Json::array();
  for (const auto& p : res.params) (p.fabric_specific() ? specific : independent).push_back(p.path);
  const Json provenance = {
      {"kind", "fitted"},
      {"tool", "pdsim calibrate serving"},
      {"command", opt.command},
      {"validation_set", set.file.empty()  // a joint fit (joint_validation_set.hpp)
                             ? Json{{"name", set.name}, {"provenance", set.provenance}}
                             : Json{{"name", set.name},
                                    {"file", relative_to_data(set.file)},
                                    {"provenance", set.provenance}}},
      {"runs", runs},
      {"metrics", metrics},
      {"seed", opt.seed ? Json(*opt.seed) : Json("each run's scenario seed")},
      {"fabric_specific", specific},
      {"fabric_independent", independent},
      {"note",
       "Each section applies only to the profile it was fitted on: a scenario on another fabric "
       "takes the fabric-independent sections and skips the fabric section."}};
  Json params = Json::object();
  for (size_t j = 0; j < res.params.size(); ++j) {
    const auto& p = res.params[j];
    const double se = res.uncertainty.se[j];
    const double tol = 1e-3 * (p.hi - p.lo);
    params[p.path] = {{"value", res.theta[j]},
                      {"std_error", std::isfinite(se) ? Json(se) : Json(nullptr)},
                      {"lower", p.lo},
                      {"upper", p.hi},
                      {"start", p.start},
                      {"at_bound", res.theta[j] - p.lo < tol || p.hi - res.theta[j] < tol},
                      {"profile", p.kind + ":" + p.profile}};
  }
  Json starts = Json::array();
  for (size_t i = 0; i < res.starts.size(); ++i)
    starts.push_back({{"start", res.starts[i]},
                      {"theta", res.minima[i].theta},
                      {"sum_of_squared_log_errors", res.minima[i].sse},
                      {"status", res.minima[i].status},
                      {"converged", res.minima[i].converged}});
  Json loo = Json::array();
  for (const auto& l : res.loo) {
    Json rs = residuals_json(set, l.residuals);
    for (size_t i = 0; i < l.residuals.size(); ++i) {
      const LooSpread& sp = l.spread[i];
      const double sig = sp.sigma;
      const auto& r = l.residuals[i];
      const bool known = std::isfinite(sig);
      rs[i]["log_ratio_sigma"] = known ? Json(sig) : Json(nullptr);
      rs[i]["variance_share"] = known && sig > 0 ? Json{{"refitted", sp.refitted / (sig * sig)},
                                                        {"held", sp.held / (sig * sig)},
                                                        {"scatter", sp.scatter / (sig * sig)}}
                                                 : Json(nullptr);
      rs[i]["error_pct_interval_90"] =
          known ? Json(sp.error_pct_90(r.predicted, r.measured)) : Json(nullptr);
      rs[i]["measured_inside_interval_90"] =
          known ? Json(sp.inside_90(r.log_ratio)) : Json(nullptr);
    }
    Json fold = {{"left_out", l.label}};
    if (opt.leave_out_by != "run") {
      Json left = Json::array();
      for (size_t k : l.runs) left.push_back(set.runs[k].name);
      fold["left_out_runs"] = left;
    }
    fold.update(Json{{"refit", l.refit},
                     {"held_at_profile_value", l.held},
                     {"converged", l.converged},
                     {"theta", l.theta},
                     {"residuals", rs}});
    loo.push_back(fold);
  }
  Json warnings = Json::array();
  for (const auto& w : res.warnings) warnings.push_back({{"kind", w.kind}, {"text", w.text}});
  Json fit = {
      {"method",
       "NLopt LN_BOBYQA (LN_COBYLA for one parameter) on the parameters scaled to [0, 1], "
       "minimising the sum of squared log ratios predicted/measured over the compared metrics, "
       "from each start point (the profiles' values, then Halton points in the ranges; the "
       "lowest minimum kept; leave-one-out refits from the same points); "
       "standard errors from the central-difference Jacobian at the optimum (1 % of each range), "
       "cov = s^2 (J^T J)^-1, s^2 = SSE / (n - p); each leave-one-out prediction with the 90 % "
       "interval of its log ratio from the fold's linear picture (sim/fit/loo_interval.hpp: the "
       "refitted parameters' covariance, each held parameter uniform over its range, and the "
       "residual scatter)"},
      {"status", res.status},
      {"evaluations", res.evaluations},
      {"starts", starts},
      {"best_start", res.best_start},
      {"sum_of_squared_log_errors", res.sse},
      {"rms_log_error", std::sqrt(res.sse / static_cast<double>(res.residuals.size()))},
      {"compared_metrics", res.residuals.size()},
      {"dof", res.uncertainty.dof},
      {"parameters", params},
      {"order", paths},
      {"covariance", matrix_json(res.uncertainty.cov)},
      {"correlation", matrix_json(res.uncertainty.corr)},
      {"residuals", residuals_json(set, res.residuals)},
      {"start_residuals", residuals_json(set, res.start_residuals)},
      {"leave_one_out", loo},
      {"warnings", warnings}};
  // Recorded only when not per run, so such a fit's overlay keeps its bytes.
  if (opt.leave_out_by != "run") fit["leave_out_by"] = opt.leave_out_by;
  // Recorded only when not the default, so an l2 fit's overlay keeps its bytes.
  if (opt.loss.kind != LossKind::l2)
    fit["loss"] = {{"kind", opt.loss.name()},
                   {"scale", opt.loss.scale},
                   {"note",
                    "the optimiser minimised the sum of this loss over the log ratios "
                    "(sim/fit/fit_loss.hpp); starts[].sum_of_squared_log_errors hold that sum; "
                    "sum_of_squared_log_errors, rms and the standard errors are from the squares"}};
  res.overlay =
      make_overlay(res.params, res.theta, opt.name.empty() ? set.name : opt.name, provenance, fit);
  return res;
}

}  // namespace pdsim

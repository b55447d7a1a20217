#include "sim/fit/serving_fit.hpp"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <map>
#include <set>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fit/set_predictor.hpp"

namespace pdsim {
namespace {

// Residual vectors for parameter vectors θ, memoised (the optimiser revisits points).
class Evaluator {
 public:
  Evaluator(const SetPredictor& pred, const std::vector<FitParameter>& params,
            const std::vector<std::string>& metrics)
      : pred_(pred), params_(params), metrics_(metrics) {}

  std::vector<std::vector<Residual>> eval(const std::vector<size_t>& runs,
                                          const std::vector<std::vector<double>>& thetas) {
    std::vector<std::vector<Residual>> out(thetas.size());
    std::vector<std::vector<ProfileOverlay>> todo;
    std::vector<size_t> where;
    for (size_t c = 0; c < thetas.size(); ++c) {
      auto it = memo_.find({runs, thetas[c]});
      if (it != memo_.end()) {
        out[c] = it->second;
        continue;
      }
      todo.push_back({make_overlay(params_, thetas[c], "candidate", Json(), Json())});
      where.push_back(c);
    }
    if (!todo.empty()) {
      const auto preds = pred_.predict_many(runs, todo);
      for (size_t k = 0; k < todo.size(); ++k) {
        out[where[k]] = fit_residuals(pred_.set(), runs, preds[k], metrics_);
        memo_[{runs, thetas[where[k]]}] = out[where[k]];
        ++evaluations_;
      }
    }
    return out;
  }
  std::vector<Residual> eval1(const std::vector<size_t>& runs, const std::vector<double>& theta) {
    return eval(runs, {theta}).front();
  }
  int evaluations() const { return evaluations_; }

 private:
  const SetPredictor& pred_;
  const std::vector<FitParameter>& params_;
  const std::vector<std::string>& metrics_;
  std::map<std::pair<std::vector<size_t>, std::vector<double>>, std::vector<Residual>> memo_;
  int evaluations_ = 0;
};

std::vector<double> log_ratios(const std::vector<Residual>& r) {
  std::vector<double> v;
  for (const auto& x : r) v.push_back(x.log_ratio);
  return v;
}

Eigen::MatrixXd jacobian_at(Evaluator& ev, const std::vector<size_t>& runs,
                            const std::vector<FitParameter>& params,
                            const std::vector<double>& theta, double rel_step) {
  std::vector<double> step, lo, hi;
  for (const auto& p : params) {
    step.push_back(rel_step * (p.hi - p.lo));
    lo.push_back(p.lo);
    hi.push_back(p.hi);
  }
  return central_jacobian(
      [&](const std::vector<std::vector<double>>& pts) {
        std::vector<std::vector<double>> r;
        for (const auto& res : ev.eval(runs, pts)) r.push_back(log_ratios(res));
        return r;
      },
      theta, step, lo, hi);
}

struct Minimum {
  std::vector<double> theta;
  double sse = 0;
  std::string status;
  bool converged = false;
};

struct NloptContext {
  Evaluator* ev;
  const std::vector<size_t>* runs;
  const std::vector<size_t>* free;
  const std::vector<FitParameter>* params;
  std::vector<double> theta;
  std::exception_ptr error;
  nlopt_opt opt;
  int calls = 0;
  const std::function<void(const std::string&)>* progress;
};

double objective(unsigned n, const double* x, double*, void* data) {
  auto& c = *static_cast<NloptContext*>(data);
  try {
    for (unsigned k = 0; k < n; ++k) {
      const FitParameter& p = (*c.params)[(*c.free)[k]];
      c.theta[(*c.free)[k]] = p.lo + std::clamp(x[k], 0.0, 1.0) * (p.hi - p.lo);
    }
    const double sse = sum_of_squares(c.ev->eval1(*c.runs, c.theta));
    if (c.progress && *c.progress && ++c.calls % 10 == 0)
      (*c.progress)("  evaluation " + std::to_string(c.calls) + ": sum of squared log errors " +
                    std::to_string(sse));
    return sse;
  } catch (...) {
    c.error = std::current_exception();
    nlopt_force_stop(c.opt);
    return HUGE_VAL;
  }
}

// One BOBYQA run over the parameters in `free`, the others held at theta0's values.
Minimum minimize_once(Evaluator& ev, const std::vector<size_t>& runs,
                      const std::vector<size_t>& free, const std::vector<FitParameter>& params,
                      const std::vector<double>& theta0, int max_evaluations,
                      const std::function<void(const std::string&)>& progress) {
  const unsigned n = static_cast<unsigned>(free.size());
  Minimum m;
  m.theta = theta0;
  if (n == 0) {
    m.sse = sum_of_squares(ev.eval1(runs, theta0));
    m.status = "nothing to fit";
    m.converged = true;
    return m;
  }
  // BOBYQA needs at least two variables; with one, COBYLA (also bounded, derivative-free).
  nlopt_opt opt = nlopt_create(n >= 2 ? NLOPT_LN_BOBYQA : NLOPT_LN_COBYLA, n);
  std::vector<double> x(n);
  for (unsigned k = 0; k < n; ++k) {
    const FitParameter& p = params[free[k]];
    x[k] = (theta0[free[k]] - p.lo) / (p.hi - p.lo);
  }
  nlopt_set_lower_bounds1(opt, 0.0);
  nlopt_set_upper_bounds1(opt, 1.0);
  nlopt_set_initial_step1(opt, 0.1);
  nlopt_set_xtol_abs1(opt, 1e-4);  // 0.01 % of each parameter's range
  nlopt_set_ftol_rel(opt, 1e-9);
  nlopt_set_maxeval(opt, max_evaluations);
  NloptContext ctx{&ev, &runs, &free, &params, theta0, nullptr, opt, 0, &progress};
  nlopt_set_min_objective(opt, objective, &ctx);
  double f = 0;
  const nlopt_result r = nlopt_optimize(opt, x.data(), &f);
  nlopt_destroy(opt);
  if (ctx.error) std::rethrow_exception(ctx.error);
  for (unsigned k = 0; k < n; ++k) {
    const FitParameter& p = params[free[k]];
    m.theta[free[k]] = p.lo + std::clamp(x[k], 0.0, 1.0) * (p.hi - p.lo);
  }
  m.sse = sum_of_squares(ev.eval1(runs, m.theta));
  m.status = nlopt_result_to_string(r);
  m.converged = r == NLOPT_SUCCESS || r == NLOPT_FTOL_REACHED || r == NLOPT_XTOL_REACHED ||
                r == NLOPT_STOPVAL_REACHED || r == NLOPT_ROUNDOFF_LIMITED;
  return m;
}

// BOBYQA restarted from its own optimum until a restart no longer improves the objective by
// 0.1 % (at most 6 runs): the simulations' discreteness makes the objective locally rough, and a
// fresh trust region steps over what stopped the previous one. Deterministic like each run.
Minimum minimize(Evaluator& ev, const std::vector<size_t>& runs, const std::vector<size_t>& free,
                 const std::vector<FitParameter>& params, const std::vector<double>& theta0,
                 int max_evaluations, const std::function<void(const std::string&)>& progress) {
  Minimum best = minimize_once(ev, runs, free, params, theta0, max_evaluations, progress);
  for (int restart = 1; restart < 6 && best.converged && !free.empty(); ++restart) {
    const Minimum next =
        minimize_once(ev, runs, free, params, best.theta, max_evaluations, progress);
    if (progress)
      progress("  restart " + std::to_string(restart) + ": sum of squared log errors " +
               std::to_string(next.sse));
    const bool better = next.sse < best.sse * (1 - 1e-3);
    if (next.sse < best.sse) best = next;
    if (!better) break;
  }
  return best;
}

std::string relative_to_data(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(path), fs::absolute(data_root()), ec);
  if (ec || rel.empty() || *rel.begin() == "..") return path;
  return rel.generic_string();
}

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

// Leave-one-out: the runs without `k` refit what they can identify (the full fit's Jacobian rows
// tell which), the rest held at the profile's value; then predict `k`.
LeaveOneOut leave_out(Evaluator& ev, const SetPredictor& pred,
                      const std::vector<std::string>& metrics, const ValidationSet& set, size_t k,
                      const std::vector<FitParameter>& params, const std::vector<double>& full,
                      const Eigen::MatrixXd& J, const std::vector<Residual>& rows,
                      int max_evaluations) {
  LeaveOneOut l;
  l.run = k;
  std::vector<size_t> others;
  for (size_t i = 0; i < set.runs.size(); ++i)
    if (i != k) others.push_back(i);
  std::vector<Eigen::Index> keep;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].run != k) keep.push_back(static_cast<Eigen::Index>(i));
  // Hold, one by one, the weakest parameter the other runs cannot identify.
  std::vector<size_t> free;
  for (size_t j = 0; j < params.size(); ++j) free.push_back(j);
  while (!free.empty()) {
    Eigen::MatrixXd Jk(static_cast<Eigen::Index>(keep.size()),
                       static_cast<Eigen::Index>(free.size()));
    std::vector<std::string> names;
    std::vector<double> range;
    for (size_t c = 0; c < free.size(); ++c) {
      for (size_t r = 0; r < keep.size(); ++r)
        Jk(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) =
            J(keep[r], static_cast<Eigen::Index>(free[c]));
      names.push_back(params[free[c]].path);
      range.push_back(params[free[c]].hi - params[free[c]].lo);
    }
    if (identifiability_problems(Jk, names, range).empty()) break;
    size_t weakest = 0;
    double weakest_norm = HUGE_VAL;
    for (size_t c = 0; c < free.size(); ++c) {
      const double nrm = Jk.col(static_cast<Eigen::Index>(c)).norm() * range[c];
      if (nrm < weakest_norm) {
        weakest_norm = nrm;
        weakest = c;
      }
    }
    free.erase(free.begin() + static_cast<long>(weakest));
  }
  std::vector<double> theta0 = full;
  std::set<size_t> is_free(free.begin(), free.end());
  for (size_t j = 0; j < params.size(); ++j) {
    if (is_free.count(j)) {
      l.refit.push_back(params[j].path);
    } else {
      theta0[j] = params[j].start;
      l.held.push_back(params[j].path);
    }
  }
  const Minimum m = minimize(ev, others, free, params, theta0, max_evaluations, {});
  l.theta = m.theta;
  l.converged = m.converged;
  // Every metric the run left out compares, fitted to or not.
  l.residuals = fit_residuals(
      set, {k}, pred.predict({k}, {make_overlay(params, m.theta, "loo", Json(), Json())}), metrics,
      /*fitted_only=*/false);
  return l;
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
  // Both ends of every range must be values the profile accepts.
  for (size_t j = 0; j < res.params.size(); ++j)
    for (const double v : {res.params[j].lo, res.params[j].hi}) {
      std::vector<double> theta;
      for (const auto& p : res.params) theta.push_back(p.start);
      theta[j] = v;
      build_deployment(load_scenario(set.runs[0].scenario, set.runs[0].sets),
                       {make_overlay(res.params, theta, "range check", Json(), Json())});
    }
  Evaluator ev(pred, res.params, metrics);
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
      " compared metrics, sum of squared log errors " +
      std::to_string(sum_of_squares(res.start_residuals)));
  if (res.start_residuals.size() < res.params.size() + 1)
    throw InputError("--fit", "",
                     "the runs give " + std::to_string(res.start_residuals.size()) +
                         " compared metrics, too few for " + std::to_string(res.params.size()) +
                         " parameters (at least one more than parameters)");
  const Eigen::MatrixXd J0 = jacobian_at(ev, all, res.params, theta0, 0.05);
  const auto problems = identifiability_problems(J0, paths, range);
  if (!problems.empty()) {
    std::string msg = "the runs cannot identify";
    for (const auto& pr : problems) msg += "\n  " + pr;
    throw InputError("--fit", "", msg + "\n(fit fewer parameters, or add runs that move them)");
  }
  std::vector<size_t> free_all;
  for (size_t j = 0; j < res.params.size(); ++j) free_all.push_back(j);
  const Minimum m =
      minimize(ev, all, free_all, res.params, theta0, opt.max_evaluations, opt.progress);
  res.theta = m.theta;
  res.status = m.status;
  res.converged = m.converged;
  res.evaluations = ev.evaluations();
  res.residuals = ev.eval1(all, m.theta);
  res.sse = sum_of_squares(res.residuals);
  say("optimiser: " + m.status + " after " + std::to_string(ev.evaluations()) +
      " evaluations, sum of squared log errors " + std::to_string(res.sse));
  if (!res.converged) return res;
  const Eigen::MatrixXd J = jacobian_at(ev, all, res.params, res.theta, 0.01);
  res.uncertainty = parameter_uncertainty(J, res.sse);
  if (opt.leave_one_out && set.runs.size() > 1)
    for (size_t k = 0; k < set.runs.size(); ++k) {
      say("leave-one-out: fitting without " + set.runs[k].name);
      res.loo.push_back(leave_out(ev, pred, metrics, set, k, res.params, res.theta, J,
                                  res.residuals, opt.max_evaluations));
    }
  res.evaluations = ev.evaluations();

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
      {"validation_set",
       {{"name", set.name}, {"file", relative_to_data(set.file)}, {"provenance", set.provenance}}},
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
  Json loo = Json::array();
  for (const auto& l : res.loo)
    loo.push_back({{"left_out", set.runs[l.run].name},
                   {"refit", l.refit},
                   {"held_at_profile_value", l.held},
                   {"converged", l.converged},
                   {"theta", l.theta},
                   {"residuals", residuals_json(set, l.residuals)}});
  const Json fit = {
      {"method",
       "NLopt LN_BOBYQA (LN_COBYLA for one parameter) on the parameters scaled to [0, 1], "
       "minimising the sum of squared log ratios predicted/measured over the compared metrics; "
       "standard errors from the central-difference Jacobian at the optimum (1 % of each range), "
       "cov = s^2 (J^T J)^-1, s^2 = SSE / (n - p)"},
      {"status", res.status},
      {"evaluations", res.evaluations},
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
      {"leave_one_out", loo}};
  res.overlay =
      make_overlay(res.params, res.theta, opt.name.empty() ? set.name : opt.name, provenance, fit);
  return res;
}

}  // namespace pdsim

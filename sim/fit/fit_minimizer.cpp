#include "sim/fit/fit_minimizer.hpp"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>

namespace pdsim {
namespace {

// BOBYQA restarted from its own optimum until a restart gains less than 0.1 %: on a simulated
// objective (steps where a batch or a chunk changes) one run stops early in a valley along
// correlated parameters (host work ~ acceptance), and each restart rebuilds its quadratic model
// there. The cap only bounds the cost.
constexpr int kMaxRestarts = 30;

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
    const double sse = c.ev->loss().total(c.ev->eval1(*c.runs, c.theta));
    if (c.progress && *c.progress && ++c.calls % 10 == 0)
      (*c.progress)("  evaluation " + std::to_string(c.calls) + ": " + c.ev->loss().label() + " " +
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
                      const std::vector<size_t>& free, const std::vector<double>& theta0,
                      int max_evaluations,
                      const std::function<void(const std::string&)>& progress) {
  const std::vector<FitParameter>& params = ev.params();
  const unsigned n = static_cast<unsigned>(free.size());
  Minimum m;
  m.theta = theta0;
  if (n == 0) {
    m.sse = ev.loss().total(ev.eval1(runs, theta0));
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
  m.sse = ev.loss().total(ev.eval1(runs, m.theta));
  m.status = nlopt_result_to_string(r);
  m.converged = r == NLOPT_SUCCESS || r == NLOPT_FTOL_REACHED || r == NLOPT_XTOL_REACHED ||
                r == NLOPT_STOPVAL_REACHED || r == NLOPT_ROUNDOFF_LIMITED;
  return m;
}

}  // namespace

Minimum minimize(Evaluator& ev, const std::vector<size_t>& runs, const std::vector<size_t>& free,
                 const std::vector<double>& theta0, int max_evaluations,
                 const std::function<void(const std::string&)>& progress) {
  Minimum best = minimize_once(ev, runs, free, theta0, max_evaluations, progress);
  for (int restart = 1; restart < kMaxRestarts && best.converged && !free.empty(); ++restart) {
    const Minimum next = minimize_once(ev, runs, free, best.theta, max_evaluations, progress);
    if (progress)
      progress("  restart " + std::to_string(restart) + ": " + ev.loss().label() + " " +
               std::to_string(next.sse));
    const bool better = next.sse < best.sse * (1 - 1e-3);
    if (next.sse < best.sse) best = next;
    if (!better) break;
  }
  return best;
}

MultiStartMinimum minimize_from(Evaluator& ev, const std::vector<size_t>& runs,
                                const std::vector<size_t>& free,
                                const std::vector<std::vector<double>>& starts, int max_evaluations,
                                const std::function<void(const std::string&)>& progress) {
  if (starts.empty()) throw std::invalid_argument("minimize_from: no start point");
  MultiStartMinimum out;
  for (size_t i = 0; i < starts.size(); ++i) {
    if (progress && starts.size() > 1)
      progress("start " + std::to_string(i + 1) + " of " + std::to_string(starts.size()));
    out.minima.push_back(minimize(ev, runs, free, starts[i], max_evaluations, progress));
    const Minimum& m = out.minima.back();
    const Minimum& b = out.minima[out.best_start];
    // A converged minimum beats one that did not converge; then the lower objective wins.
    if (i > 0 && (m.converged > b.converged || (m.converged == b.converged && m.sse < b.sse)))
      out.best_start = i;
  }
  out.best = out.minima[out.best_start];
  return out;
}

}  // namespace pdsim

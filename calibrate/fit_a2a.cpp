#include "calibrate/fit_a2a.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "calibrate/bounded_lsq.hpp"
#include "sim/core/error.hpp"
#include "sim/fabric/linear_a2a_backend.hpp"

namespace pdsim {
namespace {

const char* phase_name(A2APhase p) {
  return p == A2APhase::dispatch ? "dispatch" : "combine";
}

std::unique_ptr<LinearA2ABackend> make_backend(const std::string& name, FabricProfile p,
                                               const Json& block) {
  p.a2a[name] = block;
  std::unique_ptr<A2ABackend> b = A2ABackendRegistry::instance().create(name, p.file, "a2a", p);
  if (!dynamic_cast<LinearA2ABackend*>(b.get()))
    throw InputError(p.file, "a2a." + name, "a backend with linear parameters (cannot be fitted)");
  return std::unique_ptr<LinearA2ABackend>(static_cast<LinearA2ABackend*>(b.release()));
}

Json json_or_null(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

}  // namespace

A2AFitResult fit_a2a_backend(const std::string& backend, const FabricProfile& base,
                             const Json& settings, const std::vector<A2ARow>& rows,
                             const A2AFitOptions& opt) {
  if (rows.empty()) throw InputError(base.file, "a2a." + backend, "at least one measured row");
  Json block = settings.is_object() ? settings : Json::object();
  block["intranode_nvlink"] = rows.front().intranode_nvlink;
  for (const auto& r : rows)
    if (r.intranode_nvlink != rows.front().intranode_nvlink)
      throw InputError(r.file, "parameters.intranode_nvlink",
                       "the same value for every row fitted together for '" + backend + "'");
  Json probe = block;
  probe["layout_probe"] = true;
  const std::vector<A2AParamSpec> specs = make_backend(backend, base, probe)->param_specs();
  const size_t np = specs.size();

  // Which parameters are fitted, and the starting point (lower bounds; held ones at their value).
  std::vector<bool> fitted(np);
  std::vector<double> theta(np);
  for (size_t j = 0; j < np; ++j) {
    auto f = opt.fixed.find(specs[j].name);
    fitted[j] = f == opt.fixed.end() && specs[j].fitted_by_default;
    theta[j] = f != opt.fixed.end()         ? f->second
               : specs[j].fitted_by_default ? specs[j].lower
                                            : specs[j].default_value;
  }
  std::vector<size_t> free_idx;
  for (size_t j = 0; j < np; ++j)
    if (fitted[j]) free_idx.push_back(j);
  // Fewer rows than free parameters: least squares would return some of them at their lower
  // bound (0) as if measured (issue 28: a two-row fit gave three zeros without a word).
  if (opt.refuse_underdetermined && rows.size() < free_idx.size()) {
    std::string names;
    for (size_t j : free_idx) names += (names.empty() ? "" : ", ") + specs[j].name;
    throw InputError(rows.front().file, "a2a." + backend,
                     std::to_string(rows.size()) + " measured rows for " +
                         std::to_string(free_idx.size()) + " free parameters (" + names +
                         "): the fit is under-determined; add rows (other token counts, EP "
                         "sizes or phases) or hold parameters with --fix " +
                         backend + ".PARAM=VALUE");
  }

  std::vector<std::vector<Routing>> routings;
  for (const auto& r : rows) routings.push_back(sample_row_routings(r, opt.samples, opt.seed));

  auto block_for = [&](const std::vector<double>& th) {
    Json b = block;
    for (size_t j = 0; j < np; ++j) b[specs[j].name] = th[j];
    return b;
  };
  const Eigen::Index m = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index nf = static_cast<Eigen::Index>(free_idx.size());
  auto simulate = [&](const LinearA2ABackend& b, Eigen::MatrixXd* A, Eigen::VectorXd* y) {
    Eigen::VectorXd pred(m);
    if (A) *A = Eigen::MatrixXd::Zero(m, nf);
    if (y) *y = Eigen::VectorXd::Zero(m);
    for (Eigen::Index i = 0; i < m; ++i) {
      const A2ARow& row = rows[static_cast<size_t>(i)];
      double total = 0, constant = 0;
      std::vector<double> coef(np, 0.0);
      for (const Routing& rt : routings[static_cast<size_t>(i)]) {
        auto l = b.linearize(row.cfg, rt, row.phase);
        total += l.total_us;
        constant += l.constant_us;
        for (size_t j = 0; j < np; ++j) coef[j] += l.coef[j];
      }
      const double inv = 1.0 / opt.samples;
      pred(i) = total * inv;
      if (A && y) {
        double held = constant * inv;
        for (size_t j = 0; j < np; ++j)
          if (!fitted[j]) held += coef[j] * inv * theta[j];
        for (Eigen::Index k = 0; k < nf; ++k)
          (*A)(i, k) = coef[free_idx[static_cast<size_t>(k)]] * inv;
        (*y)(i) = row.latency_us - held;
      }
    }
    return pred;
  };
  Eigen::VectorXd measured(m);
  for (Eigen::Index i = 0; i < m; ++i) measured(i) = rows[static_cast<size_t>(i)].latency_us;
  Eigen::VectorXd lower(nf);
  for (Eigen::Index k = 0; k < nf; ++k) lower(k) = specs[free_idx[static_cast<size_t>(k)]].lower;

  // Gauss–Newton on a piecewise-linear model only moves parameters whose term binds somewhere,
  // so it is started from several points: all at their lower bounds, each parameter alone high
  // enough that its term could explain the median measured time, and all of them high. The
  // iterate with the smallest simulated squared error over all starts is kept.
  std::vector<double> best_theta = theta;
  double best_sse = std::numeric_limits<double>::infinity();
  int iterations = 0;
  auto run_from = [&](std::vector<double> th) {
    for (int it = 0; it < opt.max_iterations; ++it) {
      ++iterations;
      theta = th;
      auto b = make_backend(backend, base, block_for(th));
      Eigen::MatrixXd A;
      Eigen::VectorXd y;
      simulate(*b, &A, &y);
      BoundedLsq lsq = bounded_least_squares(A, y, lower);
      std::vector<double> next = th;
      for (Eigen::Index k = 0; k < nf; ++k) next[free_idx[static_cast<size_t>(k)]] = lsq.theta(k);
      auto nb = make_backend(backend, base, block_for(next));
      const double sse = (simulate(*nb, nullptr, nullptr) - measured).squaredNorm();
      if (sse < best_sse) {
        best_sse = sse;
        best_theta = next;
      }
      double change = 0;
      for (size_t j = 0; j < np; ++j)
        change = std::max(change, std::abs(next[j] - th[j]) / (1e-9 + std::abs(next[j])));
      th = next;
      if (change < 1e-10) break;
    }
  };
  const std::vector<double> start = theta;
  // Scale of each parameter: median measured time over its mean largest coefficient.
  std::vector<double> high(np, 0.0);
  {
    auto b = make_backend(backend, base, block_for(start));
    std::vector<double> sum(np, 0.0);
    std::vector<double> lat;
    for (size_t i = 0; i < rows.size(); ++i) {
      lat.push_back(rows[i].latency_us);
      for (const Routing& rt : routings[i]) {
        auto l = b->linearize(rows[i].cfg, rt, rows[i].phase);
        for (size_t j = 0; j < np; ++j) sum[j] += l.coef_any[j];
      }
    }
    std::sort(lat.begin(), lat.end());
    const double med = lat[lat.size() / 2];
    for (size_t j = 0; j < np; ++j) {
      const double mean_coef = sum[j] / static_cast<double>(rows.size() * routings[0].size());
      if (mean_coef > 0) high[j] = std::max(specs[j].lower, med / mean_coef);
    }
  }
  run_from(start);
  std::vector<double> all_high = start;
  for (size_t k : free_idx) {
    if (high[k] <= specs[k].lower) continue;
    std::vector<double> one = start;
    one[k] = high[k];
    all_high[k] = high[k];
    run_from(one);
  }
  run_from(all_high);

  // Standard errors and identification at the kept iterate's own linearisation.
  auto fb = make_backend(backend, base, block_for(best_theta));
  theta = best_theta;
  Eigen::MatrixXd A;
  Eigen::VectorXd y;
  const Eigen::VectorXd pred = simulate(*fb, &A, &y);
  BoundedLsq lsq = bounded_least_squares(A, y, lower);

  A2AFitResult res;
  res.block = block_for(best_theta);
  Json params = Json::object();
  for (size_t j = 0; j < np; ++j) {
    Json pj = {{"value", best_theta[j]}, {"lower_bound", specs[j].lower}};
    if (!fitted[j]) {
      pj["held"] = true;
    } else {
      Eigen::Index k = 0;
      while (free_idx[static_cast<size_t>(k)] != j) ++k;
      pj["std_error"] = json_or_null(lsq.std_error[static_cast<size_t>(k)]);
      pj["at_bound"] = static_cast<bool>(lsq.at_bound[static_cast<size_t>(k)]);
      pj["identified"] = static_cast<bool>(lsq.identified[static_cast<size_t>(k)]);
    }
    params[specs[j].name] = pj;
  }
  Json residuals = Json::array();
  for (Eigen::Index i = 0; i < m; ++i) {
    const A2ARow& r = rows[static_cast<size_t>(i)];
    residuals.push_back({{"file", r.file},
                         {"row", r.row},
                         {"ep", r.cfg.ep_ranks},
                         {"phase", phase_name(r.phase)},
                         {"measured_us", r.latency_us},
                         {"predicted_us", pred(i)},
                         {"residual_us", r.latency_us - pred(i)}});
  }
  const double sse = (pred - measured).squaredNorm();
  res.rms_us = std::sqrt(sse / static_cast<double>(m));
  res.report = {{"parameters", params},
                {"residuals", residuals},
                {"rms_us", res.rms_us},
                {"rows", m},
                {"dof", lsq.dof},
                {"iterations", iterations},
                {"routing_samples", opt.samples},
                {"seed", opt.seed},
                {"method",
                 "bounded linear least squares (Lawson-Hanson NNLS on theta - lower bound) on the "
                 "slowest rank's active terms, iterated to a fixed point of the active sets; "
                 "standard errors = sqrt(diag(s^2 (A_F^T A_F)^-1)), s^2 = SSE/dof over the "
                 "parameters not at a bound"}};
  return res;
}

}  // namespace pdsim

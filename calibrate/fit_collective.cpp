#include "calibrate/fit_collective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "calibrate/bounded_lsq.hpp"
#include "calibrate/collective_row_noise.hpp"
#include "calibrate/fit_profile.hpp"
#include "calibrate/measurement.hpp"
#include "sim/core/error.hpp"

namespace pdsim {

namespace {

struct RegimeFit {
  double alpha_us = 0, inv_bw = 0;  // µs, µs per bus byte
  double se_alpha = NAN, se_inv_bw = NAN;
  double sse = 0;          // Σ relative residual²
  double neg2_loglik = 0;  // −2 ln L with each row's variance (its noise + tau²)
  std::vector<double> rel_residuals;
};

// Relative-error resolution: a row known better than 1e-6 is known to 1e-6.
double row_variance(double noise, double tau2) {
  return std::max(noise + tau2, 1e-12);
}

// time ≈ alpha + S_bus · inv_bw, weighted least squares on (t − t̂) / t with both terms ≥ 0;
// row i has variance var[i] + tau2 in that relative error.
RegimeFit fit_regime(const std::vector<const CollectiveRow*>& rows, const std::vector<double>& var,
                     double tau2, double factor) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  Eigen::MatrixXd A(n, 2);
  Eigen::VectorXd y(n), w(n);
  for (Eigen::Index r = 0; r < n; ++r) {
    const auto& row = *rows[static_cast<size_t>(r)];
    w(r) = 1.0 / std::sqrt(row_variance(var[static_cast<size_t>(r)], tau2));
    A(r, 0) = w(r) / row.time_us;
    A(r, 1) = w(r) * factor * row.bytes / row.time_us;
    y(r) = w(r);
  }
  // The two columns differ by ~10^8 in scale (1/t against bytes/t): fit on unit-norm columns so
  // that the normal matrix of the standard errors is well conditioned, then scale back.
  const Eigen::Vector2d norm(A.col(0).norm(), A.col(1).norm());
  for (int j = 0; j < 2; ++j) A.col(j) /= norm(j);
  const BoundedLsq s = bounded_least_squares(A, y, Eigen::Vector2d::Zero());
  RegimeFit f;
  f.alpha_us = s.theta(0) / norm(0);
  f.inv_bw = s.theta(1) / norm(1);
  f.se_alpha = s.std_error[0] / norm(0);
  f.se_inv_bw = s.std_error[1] / norm(1);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double e = s.residuals(i) / w(i);  // back to relative error
    f.rel_residuals.push_back(e);
    const double v = row_variance(var[static_cast<size_t>(i)], tau2);
    f.sse += e * e;
    f.neg2_loglik += std::log(2 * M_PI * v) + e * e / v;
  }
  return f;
}

// Every split of `m` ascending sizes into k contiguous groups of at least two: the index where
// each group after the first starts.
void splits(int m, int k, int from, std::vector<int>& cur, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(cur.size()) == k - 1) {
    if (m - from >= 2) out.push_back(cur);
    return;
  }
  for (int c = from + 2; c <= m - 2; ++c) {
    cur.push_back(c);
    splits(m, k, c, cur, out);
    cur.pop_back();
  }
}

Json finite_or_null(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

}  // namespace

CollectiveCurveFit fit_collective_curve(const std::string& op, int ranks, int nodes,
                                        const std::vector<CollectiveRow>& rows, int max_regimes) {
  const double factor = collective_bus_factor(op, ranks);
  std::vector<double> sizes;
  for (const auto& r : rows) sizes.push_back(r.bytes);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const int m = static_cast<int>(sizes.size());
  const std::string shape = op + " over " + std::to_string(ranks) + " ranks on " +
                            std::to_string(nodes) + (nodes == 1 ? " node" : " nodes");
  if (m < 2)
    throw InputError(rows.empty() ? "<collective>" : rows.front().ref, "results",
                     "rows at two or more message sizes for " + shape);
  const double n = static_cast<double>(rows.size());
  const std::vector<double> var = collective_row_variances(rows);
  struct Candidate {
    std::vector<int> starts;
    std::vector<RegimeFit> fits;
    double sse = 0, tau = 0, neg2_loglik = 0, bic = 0;
  };
  std::vector<Candidate> cands;
  for (int k = 1; k <= std::min(max_regimes, m / 2); ++k) {
    std::vector<std::vector<int>> ss;
    std::vector<int> cur;
    splits(m, k, 0, cur, ss);
    for (const auto& s : ss) {
      std::vector<std::vector<const CollectiveRow*>> in(static_cast<size_t>(k));
      std::vector<std::vector<double>> in_var(static_cast<size_t>(k));
      for (int g = 0; g < k; ++g) {
        const double lo = sizes[g == 0 ? 0 : s[g - 1]];
        const double hi = g + 1 < k ? sizes[s[g] - 1] : sizes.back();
        for (size_t i = 0; i < rows.size(); ++i)
          if (rows[i].bytes >= lo && rows[i].bytes <= hi) {
            in[g].push_back(&rows[i]);
            in_var[g].push_back(var[i]);
          }
      }
      // tau by maximum likelihood on a log grid, 32 points a decade from 1e-5 to 1 (relative
      // error): deterministic, and finer than anything the rows can resolve.
      Candidate best_tau;
      for (int j = 0; j <= 160; ++j) {
        const double tau = j == 0 ? 0.0 : std::pow(10.0, -5.0 + (j - 1) / 32.0);
        Candidate c;
        c.starts = s;
        c.tau = tau;
        for (int g = 0; g < k; ++g) {
          c.fits.push_back(fit_regime(in[g], in_var[g], tau * tau, factor));
          c.sse += c.fits.back().sse;
          c.neg2_loglik += c.fits.back().neg2_loglik;
        }
        if (j == 0 || c.neg2_loglik < best_tau.neg2_loglik) best_tau = std::move(c);
      }
      const int params = 3 * k;  // alpha and busbw per regime, one boundary between two, tau
      best_tau.bic = best_tau.neg2_loglik + params * std::log(n);
      cands.push_back(std::move(best_tau));
    }
  }
  size_t best = 0;
  for (size_t i = 1; i < cands.size(); ++i)
    if (cands[i].bic < cands[best].bic) best = i;
  const Candidate& c = cands[best];

  CollectiveCurveFit out;
  out.curve.op = op;
  out.curve.ranks = ranks;
  out.curve.nodes = nodes;
  out.curve.min_bytes = sizes.front();
  out.curve.max_bytes = sizes.back();
  Json regimes = Json::array(), rows_out = Json::array(), cand_out = Json::array();
  const int k = static_cast<int>(c.fits.size());
  for (int g = 0; g < k; ++g) {
    const RegimeFit& f = c.fits[g];
    CollectiveRegime r;
    r.alpha_us = f.alpha_us;
    r.busbw_GBps = f.inv_bw > 0 ? 1e-3 / f.inv_bw : std::numeric_limits<double>::infinity();
    r.rows = static_cast<int>(f.rel_residuals.size());
    double ss = 0;
    for (double e : f.rel_residuals) ss += e * e;
    r.rms_rel_error = std::sqrt(ss / r.rows);
    if (g + 1 < k) {
      r.bracket_low_bytes = sizes[c.starts[g] - 1];
      r.bracket_high_bytes = sizes[c.starts[g]];
      r.up_to_bytes = std::sqrt(r.bracket_low_bytes * r.bracket_high_bytes);
    } else {
      r.up_to_bytes = std::numeric_limits<double>::infinity();
    }
    out.curve.regimes.push_back(r);
    // se(busbw) from se(1/busbw) by the delta method.
    const double se_bw = f.inv_bw > 0 ? 1e-3 * f.se_inv_bw / (f.inv_bw * f.inv_bw) : NAN;
    regimes.push_back({{"alpha_us", f.alpha_us},
                       {"alpha_us_std_error", finite_or_null(f.se_alpha)},
                       {"busbw_GBps", finite_or_null(r.busbw_GBps)},
                       {"busbw_GBps_std_error", finite_or_null(se_bw)},
                       {"rms_rel_error", r.rms_rel_error},
                       {"rows", r.rows}});
  }
  CollectiveProfile one;
  one.curves = {out.curve};
  double worst = 0;
  int beyond10 = 0;
  // Per instance and size, the geometric mean of its rows (the replicates' consensus).
  std::map<std::pair<std::string, double>, std::pair<double, int>> consensus;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const CollectivePrediction p = predict_collective(one, op, r.bytes, ranks, nodes);
    const double measured = factor * r.bytes / (r.time_us * 1e3);
    const double err = 100.0 * (p.busbw_GBps / measured - 1.0);
    worst = std::max(worst, std::abs(err));
    if (std::abs(err) > 10) ++beyond10;
    rows_out.push_back({{"row", r.ref},
                        {"instance", r.instance},
                        {"placement", r.placement},
                        {"bytes", r.bytes},
                        {"busbw_GBps_measured", measured},
                        {"busbw_GBps_predicted", p.busbw_GBps},
                        {"busbw_error_pct", err},
                        {"noise_rel", std::sqrt(var[i])}});
    auto& [log_sum, count] = consensus[{r.instance, r.bytes}];
    log_sum += std::log(measured / p.busbw_GBps);
    ++count;
  }
  Json sizes_out = Json::array();
  double worst_size = 0;
  for (const auto& [key, v] : consensus) {
    const double err = 100.0 * (std::exp(-v.first / v.second) - 1.0);
    worst_size = std::max(worst_size, std::abs(err));
    sizes_out.push_back({{"instance", key.first},
                         {"bytes", key.second},
                         {"rows", v.second},
                         {"busbw_error_pct", err}});
  }
  for (const auto& x : cands) {
    Json starts = Json::array();
    for (int s : x.starts) starts.push_back(sizes[s]);
    cand_out.push_back({{"regimes", x.fits.size()},
                        {"regime_starts_bytes", starts},
                        {"sse_rel", x.sse},
                        {"tau_rel", x.tau},
                        {"neg2_loglik", x.neg2_loglik},
                        {"bic", x.bic},
                        {"chosen", &x == &c}});
  }
  out.report = {{"op", op},
                {"ranks", ranks},
                {"nodes", nodes},
                {"regimes", regimes},
                {"rows", rows_out},
                {"tau_rel", c.tau},
                {"max_abs_busbw_error_pct", worst},
                {"sizes", sizes_out},
                {"max_abs_busbw_error_pct_per_size", worst_size},
                {"rows_beyond_10pct", beyond10},
                {"candidates", cand_out},
                {"method",
                 "contiguous size regimes (at least two sizes each, up to max_regimes); per "
                 "regime time = alpha + S_bus / busbw by bounded weighted least squares on "
                 "relative error, row i weighted by 1 / (noise_i + tau^2) (noise: print "
                 "resolution + repeatability at its size; tau: maximum likelihood per split); "
                 "the split with the lowest BIC (-2 ln L + 3k ln n)"}};
  return out;
}

CollectiveProfile fit_collective_profile(const CollectiveFitOptions& opt) {
  if (opt.files.empty()) throw InputError("<command line>", "measurements", "at least one file");
  if (opt.max_regimes < 1) throw InputError("<command line>", "--max-regimes", "an integer >= 1");
  std::map<std::tuple<std::string, int, int>, std::vector<CollectiveRow>> groups;
  Json used = Json::array();
  for (const auto& f : opt.files) {
    const JsonNode d = load_measurement(f);
    if (d.at("probe").string() != "collective")
      d.at("probe").fail("expected \"collective\" (nccl-tests rows)");
    const JsonNode par = d.at("parameters");
    for (const char* k : {"ranks", "nodes"})
      if (!par.has(k))
        throw InputError(d.file(), std::string("parameters.") + k,
                         "the run's ranks and nodes (nccl-tests prints neither: import its "
                         "output with --param ranks=N --param nodes=M)");
    const int ranks = static_cast<int>(par.at("ranks").positive_integer());
    const int nodes = static_cast<int>(par.at("nodes").positive_integer());
    if (ranks < 2 || ranks < nodes) par.at("ranks").fail("expected at least 2 and one per node");
    const std::string instance =
        d.has("context") ? d.at("context").str_or("instance", "") : std::string();
    const JsonNode res = d.at("results");
    for (size_t i = 0; i < res.size(); ++i) {
      const JsonNode r = res.at(i);
      const std::string op = r.at("op").string();
      CollectiveRow row;
      row.ref = provenance_path(f) + "#results[" + std::to_string(i) + "]";
      row.instance = instance;
      row.placement = r.str_or("placement", "");
      row.bytes = r.at("bytes").positive();
      if (r.has("time_us")) {
        row.time_us = r.at("time_us").positive();
        row.print_unit_rel = printed_unit(row.time_us) / row.time_us;
      } else {
        const double bus = r.at("busbw_GBps").positive();
        row.time_us = collective_bus_factor(op, ranks) * row.bytes / (bus * 1e3);
        // nccl-tests prints busbw as %.2f: a unit of 0.01 GB/s at least.
        row.print_unit_rel = std::min(0.01, printed_unit(bus)) / bus;
      }
      groups[{op, ranks, nodes}].push_back(row);
    }
    used.push_back({{"file", provenance_path(f)},
                    {"source", d.at("provenance").str_or("source", "")},
                    {"kind", d.at("provenance").str_or("kind", "")}});
  }
  CollectiveProfile p;
  p.name = opt.name;
  p.library = opt.library;
  p.fabric = opt.fabric;
  Json curves = Json::array();
  for (const auto& [key, rows] : groups) {
    const auto& [op, ranks, nodes] = key;
    CollectiveCurveFit cf = fit_collective_curve(op, ranks, nodes, rows, opt.max_regimes);
    p.curves.push_back(cf.curve);
    curves.push_back(cf.report);
  }
  p.provenance = {{"tool", "pdsim calibrate collective"},
                  {"files_used", used},
                  {"date", "omitted so that regeneration is byte-identical; see git history"}};
  p.fit = {{"curves", curves}, {"max_regimes", opt.max_regimes}};
  return p;
}

}  // namespace pdsim

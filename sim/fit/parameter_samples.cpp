#include "sim/fit/parameter_samples.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/core/rng.hpp"
#include "sim/core/stats.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {
namespace {

bool has_covariance(const ProfileOverlay& o) {
  return o.doc.contains("fit") && o.doc["fit"].contains("covariance") &&
         o.doc["fit"].contains("order") && o.doc["fit"].contains("parameters");
}

// Sets the overlay field named by a fit path ("<kind>.<field>...") to v.
void set_path(Json& doc, const std::string& path, double v) {
  const size_t dot = path.find('.');
  Json* node = &doc["profiles"][path.substr(0, dot)]["set"];
  std::string rest = path.substr(dot + 1);
  for (size_t d; (d = rest.find('.')) != std::string::npos; rest = rest.substr(d + 1))
    node = &(*node)[rest.substr(0, d)];
  (*node)[rest] = v;
}

}  // namespace

const std::vector<std::string>& interval_metrics() {
  static const std::vector<std::string> m = {
      "duration",     "output_throughput", "mean_e2e_latency_ms", "p99_e2e_latency_ms",
      "mean_ttft_ms", "p99_ttft_ms",       "mean_tpot_ms",        "median_itl_ms",
      "p99_itl_ms",   "max_itl_ms"};
  return m;
}

std::vector<ProfileOverlay> sample_overlays(const ProfileOverlay& fitted, int n, uint64_t seed) {
  const std::string where = fitted.file.empty() ? "overlay" : fitted.file;
  if (!has_covariance(fitted))
    throw InputError(where, "fit.covariance", "an overlay written by `pdsim calibrate serving`");
  // The fit block is read field by field (a hand-edited overlay may hold anything there).
  const JsonNode fit = JsonNode::from_json(fitted.doc, where).at("fit");
  const JsonNode order_node = fit.at("order");
  if (!order_node.is_array() || order_node.size() == 0)
    order_node.fail("expected a non-empty array of fitted parameter paths");
  std::vector<std::string> order;
  for (size_t i = 0; i < order_node.size(); ++i) {
    const std::string path = order_node.at(i).string();
    const size_t dot = path.find('.');
    if (dot == std::string::npos || dot + 1 == path.size() ||
        !fitted.doc["profiles"].contains(path.substr(0, dot)))
      order_node.at(i).fail(
          "expected \"<profile kind>.<field>\" of a profile this overlay sets, got \"" +
          excerpt(path) + "\"");
    order.push_back(path);
  }
  const size_t p = order.size();
  const JsonNode cov_node = fit.at("covariance");
  if (!cov_node.is_array() || cov_node.size() != p)
    cov_node.fail("expected a " + std::to_string(p) + " x " + std::to_string(p) +
                  " matrix (one row per entry of fit.order)");
  Eigen::VectorXd mean(static_cast<Eigen::Index>(p));
  Eigen::MatrixXd cov(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(p));
  std::vector<double> lo(p), hi(p);
  for (size_t i = 0; i < p; ++i) {
    const JsonNode par = fit.at("parameters").at(order[i]);
    const double v = par.at("value").number();
    lo[i] = par.at("lower").number();
    hi[i] = par.at("upper").number();
    if (!(lo[i] <= v && v <= hi[i])) par.fail("expected lower <= value <= upper");
    mean(static_cast<Eigen::Index>(i)) = v;
    const JsonNode row = cov_node.at(i);
    if (!row.is_array() || row.size() != p)
      row.fail("expected a row of " + std::to_string(p) + " covariances");
    for (size_t j = 0; j < p; ++j) {
      const JsonNode c = row.at(j);
      if (!c.is_number())
        c.fail("expected finite covariances (the fit had no degrees of freedom left)");
      cov(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = c.number();
    }
  }
  if (!cov.isApprox(cov.transpose())) cov_node.fail("expected a symmetric matrix");
  // A symmetric square root that tolerates a covariance only positive semi-definite.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(cov);
  const Eigen::MatrixXd root =
      es.eigenvectors() * es.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
  std::vector<ProfileOverlay> out;
  for (int s = 0; s < n; ++s) {
    Rng rng = Rng(seed).fork(static_cast<uint64_t>(s));
    Eigen::VectorXd z(static_cast<Eigen::Index>(p));
    for (size_t i = 0; i < p; ++i) z(static_cast<Eigen::Index>(i)) = rng.normal(0.0, 1.0);
    const Eigen::VectorXd theta = mean + root * z;
    Json doc = {{"schema", kProfileOverlaySchema},
                {"name", fitted.doc["name"].get<std::string>() + " sample " + std::to_string(s)},
                {"provenance", {{"kind", "sampled"}, {"from", where}, {"sample", s}}},
                {"profiles", Json::object()}};
    for (const auto& [kind, sec] : fitted.doc["profiles"].items())
      doc["profiles"][kind] = {{"profile", sec["profile"]}, {"set", Json::object()}};
    for (size_t i = 0; i < p; ++i)
      set_path(doc, order[i], std::clamp(theta(static_cast<Eigen::Index>(i)), lo[i], hi[i]));
    out.push_back(ProfileOverlay{"", doc});
  }
  return out;
}

std::vector<ProfileOverlay> prior_overlays(const std::string& fabric_profile,
                                           const std::vector<HeldParameter>& held, int n,
                                           uint64_t seed) {
  std::vector<ProfileOverlay> out;
  if (std::none_of(held.begin(), held.end(), [](const auto& h) { return h.prior.has_value(); }))
    return out;
  for (int k = 0; k < n; ++k) {
    Rng rng = Rng(seed).fork(static_cast<uint64_t>(k));
    Json doc = {{"schema", kProfileOverlaySchema},
                {"name", "held-parameter priors, sample " + std::to_string(k)},
                {"provenance", {{"kind", "sampled"}, {"from", "profile priors"}, {"sample", k}}},
                {"profiles", {{"fabric", {{"profile", fabric_profile}, {"set", Json::object()}}}}}};
    for (const auto& h : held) {
      // One draw per held parameter, prior or not, so a parameter's draw does not depend on
      // whether an earlier one has a prior.
      const double u = rng.uniform01();
      if (h.prior)
        set_path(doc, h.parameter, h.prior->lower + u * (h.prior->upper - h.prior->lower));
    }
    out.push_back(ProfileOverlay{"", doc});
  }
  return out;
}

std::vector<ProfileOverlay> fitted_overlays(const Scenario& s) {
  std::vector<ProfileOverlay> out;
  for (const auto& f : s.profile_overlays) {
    std::filesystem::path p(f);
    if (p.is_relative() && !s.file.empty()) p = std::filesystem::path(s.file).parent_path() / p;
    ProfileOverlay o = load_profile_overlay(p.lexically_normal().string());
    if (has_covariance(o)) out.push_back(std::move(o));
  }
  return out;
}

Json prediction_intervals(const Scenario& s, uint64_t seed, int samples, int jobs) {
  const std::vector<ProfileOverlay> fitted = fitted_overlays(s);
  const Deployment base = build_deployment(s);  // input errors before forking
  const std::vector<HeldParameter> held =
      held_parameters(base, base.profiles.value("profile_overlays", Json()));
  Json priors = Json::array();
  for (const auto& h : held)
    if (h.prior)
      priors.push_back(
          {{"parameter", h.parameter}, {"lower", h.prior->lower}, {"upper", h.prior->upper}});
  if (fitted.empty() && priors.empty())
    throw InputError(s.file, "profile_overlays",
                     "an overlay written by `pdsim calibrate serving` (with a fit covariance), or "
                     "a held all-to-all parameter with a prior in the fabric profile, for "
                     "--param-samples");
  if (samples < 2) throw InputError("--param-samples", "", "expected at least 2 samples");
  // Draw k: every fitted overlay's k-th sample, applied after the scenario's overlays.
  std::vector<std::vector<ProfileOverlay>> draws(static_cast<size_t>(samples));
  Json used = Json::array();
  for (size_t o = 0; o < fitted.size(); ++o) {
    const auto ss = sample_overlays(fitted[o], samples, Rng(seed).fork(500 + o).next_u64());
    for (int k = 0; k < samples; ++k)
      draws[static_cast<size_t>(k)].push_back(ss[static_cast<size_t>(k)]);
    used.push_back(fitted[o].file);
  }
  const auto from_priors =
      prior_overlays(base.fabric.name, held, samples, Rng(seed).fork(900).next_u64());
  for (size_t k = 0; k < from_priors.size(); ++k) draws[k].push_back(from_priors[k]);
  std::vector<Json> summaries(static_cast<size_t>(samples));
  std::vector<TaskOutcome> errors(static_cast<size_t>(samples));  // failed tasks only
  run_in_processes(
      static_cast<size_t>(samples), jobs,
      [&](size_t k) {
        Json j = bench_summary(simulate(build_deployment(s, draws[k]), seed));
        j.erase("pdsim");
        return j;
      },
      [&](size_t k, TaskOutcome o) {
        if (o.ok)
          summaries[k] = std::move(o.result);
        else
          errors[k] = std::move(o);
      },
      "simulation of a parameter sample");
  for (size_t k = 0; k < errors.size(); ++k)
    if (!errors[k].error.empty())
      throw PropagatedError(errors[k].code,
                            "parameter sample " + std::to_string(k) + ": " + errors[k].error);
  Json metrics = Json::object(), per_draw = Json::object();
  for (const auto& m : interval_metrics()) {
    std::vector<double> v;
    Json row = Json::array();
    for (const auto& sm : summaries) {
      const bool has = sm.contains(m) && sm[m].is_number();
      if (has) v.push_back(sm[m].get<double>());
      row.push_back(has ? sm[m] : Json(nullptr));
    }
    if (v.empty()) continue;
    per_draw[m] = std::move(row);
    const Band b = band_of(std::move(v));
    metrics[m] = {{"p05", b.p05}, {"p50", b.p50}, {"p95", b.p95}};
  }
  return {{"samples", samples},
          {"seed", seed},
          {"overlays", used},
          {"priors", priors},
          {"metrics", metrics},
          {"draws", per_draw},
          {"note",
           "5-95 % over draws of the fitted parameters from their covariance (clipped to "
           "the fit ranges) and of held parameters from their priors (uniform), all with the "
           "run's seed: the parameters' uncertainty alone"}};
}

}  // namespace pdsim

#include "sim/fit/envelope.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "sim/fabric/linear_a2a_backend.hpp"
#include "sim/fit/loo_interval.hpp"

namespace pdsim {
namespace {

// The coordinates a fitted parameter of each profile kind depends on: what its fit runs must
// share with a prediction for the value to be more than an extrapolation. An assumption, named:
// a serving stack's host costs were fitted on one model's forward passes and one load, so the
// model, the layouts and the load are part of what they absorbed; a fabric's all-to-all costs
// depend on the platform, the MoE path, its NICs and tokens per rank; an acceptance rate on the
// model and the speculative settings; a collective profile's serving terms on the platform and
// the layouts (which collectives, over how many ranks and nodes).
const std::map<std::string, std::vector<std::string>>& parameter_depends_on() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"acceptance", {"model", "speculative"}},
      {"collective", {"platform", "fabric", "prefill.layout", "decode.layout"}},
      {"fabric",
       {"platform", "fabric", "decode.moe_path", "decode.a2a_nics_per_gpu",
        "decode.requests_per_rank"}},
      {"serving",
       {"model", "serving_stack", "prefill.layout", "decode.layout", "concurrency", "input_len",
        "decode.requests_per_rank"}},
  };
  return m;
}

bool wanted(const std::vector<std::string>* keys, const std::string& k) {
  return !keys || std::find(keys->begin(), keys->end(), k) != keys->end();
}

std::string range_text(double lo, double hi) {
  char buf[64];
  if (lo == hi)
    std::snprintf(buf, sizeof buf, "%.6g", lo);
  else
    std::snprintf(buf, sizeof buf, "%.6g to %.6g", lo, hi);
  return buf;
}

// The nearest deployment among `pool` (corpus run indices) over coordinates `keys` (null: all):
// the runs sharing the categorical values of the first run with the fewest differences.
std::vector<size_t> nearest_of(const Coordinates& c, const CalibrationCorpus& corpus,
                               const std::vector<size_t>& pool,
                               const std::vector<std::string>* keys) {
  auto differences = [&](size_t r) {
    int n = 0;
    const Coordinates& rc = corpus.runs[r].coordinates;
    for (size_t i = 0; i < c.size(); ++i)
      if (!c[i].numeric && wanted(keys, c[i].key) && rc[i].text != c[i].text) ++n;
    return n;
  };
  int best = std::numeric_limits<int>::max();
  size_t first = 0;
  for (size_t r : pool)
    if (const int d = differences(r); d < best) best = d, first = r;
  std::vector<size_t> out;
  for (size_t r : pool) {
    bool same = true;
    for (size_t i = 0; i < c.size(); ++i)
      if (!c[i].numeric && wanted(keys, c[i].key) &&
          corpus.runs[r].coordinates[i].text != corpus.runs[first].coordinates[i].text)
        same = false;
    if (same) out.push_back(r);
  }
  return out;
}

std::vector<CoordinateGap> gaps_to(const Coordinates& c, const CalibrationCorpus& corpus,
                                   const std::vector<size_t>& runs,
                                   const std::vector<std::string>* keys) {
  std::vector<CoordinateGap> out;
  if (runs.empty()) return out;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!wanted(keys, c[i].key)) continue;
    if (!c[i].numeric) {
      const std::string& m = corpus.runs[runs.front()].coordinates[i].text;
      if (m != c[i].text) out.push_back({c[i].key, c[i].label, c[i].value(), m});
      continue;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (size_t r : runs) {
      lo = std::min(lo, corpus.runs[r].coordinates[i].number);
      hi = std::max(hi, corpus.runs[r].coordinates[i].number);
    }
    const double v = c[i].number, tol = 1e-9 * std::max(1.0, std::abs(v));
    if (v < lo - tol || v > hi + tol)
      out.push_back({c[i].key, c[i].label, c[i].value(), range_text(lo, hi)});
  }
  return out;
}

// "kind.a.b" for every number under `applied`.
void flatten(const Json& j, const std::string& prefix, std::vector<std::string>& out) {
  if (!j.is_object()) {
    out.push_back(prefix);
    return;
  }
  for (auto it = j.begin(); it != j.end(); ++it) flatten(it.value(), prefix + "." + it.key(), out);
}

Json gaps_json(const std::vector<CoordinateGap>& gaps) {
  Json a = Json::array();
  for (const auto& g : gaps)
    a.push_back(
        {{"coordinate", g.key}, {"label", g.label}, {"value", g.value}, {"measured", g.measured}});
  return a;
}

// Each run's error of `family` (mean log ratio over its compared metrics), for runs with none.
std::vector<double> family_errors(const CalibrationCorpus& corpus, const std::vector<size_t>& runs,
                                  const MetricSpread& family) {
  std::vector<double> out;
  for (size_t r : runs) {
    double s = 0;
    int n = 0;
    for (const auto& p : corpus.runs[r].points)
      if (std::find(family.metrics.begin(), family.metrics.end(), p.metric) !=
          family.metrics.end()) {
        s += std::log(p.predicted / p.measured);
        ++n;
      }
    if (n) out.push_back(s / n);
  }
  return out;
}

}  // namespace

Envelope locate(const Coordinates& c, const CalibrationCorpus& corpus, const Json& overlay_log,
                const Json* overlay_fits) {
  Envelope e;
  std::vector<size_t> all(corpus.runs.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (!all.empty()) {
    e.nearest = nearest_of(c, corpus, all, nullptr);
    e.gaps = gaps_to(c, corpus, e.nearest, nullptr);
  }
  e.inside = !all.empty() && e.gaps.empty();
  if (!overlay_log.is_object() || !overlay_log.contains("applied")) return e;
  std::set<std::string> residuals_read;  // an overlay applies one section per profile kind
  for (const auto& a : overlay_log["applied"]) {
    const std::string kind = a.value("kind", ""), file = a.value("overlay", "");
    // The measured files of the overlay's fit, as the corpus names them: a published point that
    // sits in its validation set's own file is FILE#RUN there (calibrate corpus).
    std::set<std::string> fit_files;
    std::string name = file;  // shown by name: a file path depends on the checkout
    for (const auto& o : overlay_log.value("overlays", Json::array()))
      if (o.value("file", "") == file) {
        name = o.value("name", file);
        if (o.contains("provenance"))
          for (const auto& r : o["provenance"].value("runs", Json::array())) {
            fit_files.insert(r.value("measured", ""));
            fit_files.insert(r.value("measured", "") + "#" + r.value("name", ""));
          }
      }
    std::vector<size_t> pool;
    for (size_t i = 0; i < corpus.runs.size(); ++i)
      if (fit_files.count(corpus.runs[i].measured_file)) pool.push_back(i);
    const auto dep = parameter_depends_on().find(kind);
    const std::vector<std::string>* keys =
        dep == parameter_depends_on().end() ? nullptr : &dep->second;
    std::vector<std::string> params;
    flatten(a.value("applied", Json::object()), kind, params);
    std::vector<CoordinateGap> gaps;
    if (!pool.empty()) gaps = gaps_to(c, corpus, nearest_of(c, corpus, pool, keys), keys);
    for (const auto& p : params) e.parameters.push_back({p, name, !pool.empty(), gaps});
    for (size_t r : e.nearest)
      if (fit_files.count(corpus.runs[r].measured_file)) e.nearest_fitted = true;
    if (!overlay_fits || !overlay_fits->contains(file) || !residuals_read.insert(file).second)
      continue;
    const Json& fit = (*overlay_fits)[file];
    if (!e.inside && fit.contains("leave_one_out")) {
      Envelope::OverlaySpread os{name, fold_spread(fit), ""};
      const std::vector<size_t> tested = fold_runs_in(os.spread, corpus, pool);
      os.gap = fold_spread_gap(os.spread, c, corpus, tested);
      e.overlay_spreads.push_back(std::move(os));
    }
    for (const auto& res : fit.value("residuals", Json::array()))
      for (size_t r : e.nearest)
        if (fit_files.count(corpus.runs[r].measured_file) &&
            res.value("run", "") == corpus.runs[r].name && res.contains("log_ratio"))
          e.nearest_residuals.push_back(
              {corpus.runs[r].name, res.value("metric", ""), res["log_ratio"].get<double>()});
  }
  return e;
}

Json envelope_json(const Envelope& e, const Coordinates& c, const CalibrationCorpus& corpus,
                   const Json& summary) {
  Json j = {{"corpus", corpus.file},
            {"corpus_runs", corpus.runs.size()},
            {"inside", e.inside},
            {"coordinates", coordinates_json(c)}};
  const bool fitted = e.nearest_fitted;
  Json nearest = Json::array();
  for (size_t r : e.nearest) nearest.push_back(corpus.runs[r].set + "/" + corpus.runs[r].name);
  j["nearest"] = {{"deployment", e.nearest.empty() ? "" : corpus.runs[e.nearest[0]].deployment()},
                  {"runs", nearest},
                  {"fitted", fitted},
                  {"differs", gaps_json(e.gaps)}};
  Json params = Json::array();
  for (const auto& p : e.parameters)
    params.push_back({{"parameter", p.parameter},
                      {"overlay", p.overlay},
                      {"fit_runs_in_corpus", p.in_corpus},
                      {"extrapolated", !p.in_corpus || !p.gaps.empty()},
                      {"differs", gaps_json(p.gaps)}});
  j["parameters"] = params;
  Json held = Json::array();
  for (const auto& h : e.held) {
    Json elsewhere = Json::array();
    for (const auto& f : h.fitted_elsewhere)
      elsewhere.push_back({{"overlay", f.overlay},
                           {"value", f.value},
                           {"std_error", f.std_error ? Json(*f.std_error) : Json(nullptr)}});
    Json hj = {{"parameter", h.parameter},
               {"value", h.value},
               {"prior", nullptr},
               {"fitted_elsewhere", elsewhere}};
    if (h.prior)
      hj["prior"] = {{"lower", h.prior->lower},
                     {"upper", h.prior->upper},
                     {"basis", h.prior->basis},
                     {"sampled_by", "--param-samples (uniform)"}};
    held.push_back(std::move(hj));
  }
  j["held_parameters"] = held;
  Json iv = Json::object();
  for (const auto& f : corpus.spreads) {
    double sigma = 0;
    std::string basis;
    size_t runs = 0, deployments = 0;
    std::string overlay;
    if (!e.inside) {
      sigma = f.tau;
      basis = "spread between deployments";
      runs = static_cast<size_t>(f.runs);
      deployments = f.groups.size();
      for (const auto& os : e.overlay_spreads)
        for (const auto& of : os.spread.families)
          if (of.family == f.family && os.gap.empty() && of.tau > 0 &&
              (overlay.empty() || of.tau > sigma)) {
            sigma = of.tau;
            overlay = os.overlay;
            basis = "spread of the fit's left-out deployments";
            runs = static_cast<size_t>(of.runs);
            deployments = of.groups.size();
          }
    } else if (!fitted) {
      const std::vector<double> errs = family_errors(corpus, e.nearest, f);
      double s2 = 0;
      for (double x : errs) s2 += x * x;
      if (!errs.empty()) sigma = std::sqrt(s2 / static_cast<double>(errs.size()));
      basis = "this deployment's error";
      runs = errs.size();
      deployments = 1;
    } else {
      double s2 = 0;
      size_t n = 0;
      std::set<std::string> fitted_runs;
      for (const auto& r : e.nearest_residuals)
        if (std::find(f.metrics.begin(), f.metrics.end(), r.metric) != f.metrics.end()) {
          s2 += r.log_ratio * r.log_ratio;
          ++n;
          fitted_runs.insert(r.run);
        }
      if (n) sigma = std::sqrt(s2 / static_cast<double>(n));
      runs = fitted_runs.size();
      basis = "the fit's residuals on this deployment";
      deployments = 1;
    }
    if (sigma <= 0) continue;
    for (const auto& m : f.metrics) {
      if (!summary.contains(m) || !summary[m].is_number()) continue;
      const double v = summary[m].get<double>();
      iv[m] = {{"family", f.family},
               {"sigma_log", sigma},
               {"basis", basis},
               {"overlay", overlay.empty() ? Json(nullptr) : Json(overlay)},
               {"runs", runs},
               {"deployments", deployments},
               {"lo", v * std::exp(-kZ90 * sigma)},
               {"hi", v * std::exp(kZ90 * sigma)}};
    }
  }
  j["interval_90"] = iv;
  Json spreads = Json::array();
  for (const auto& os : e.overlay_spreads) {
    Json o = {{"overlay", os.overlay}, {"covers", os.gap.empty()}, {"gap", os.gap}};
    o.update(fold_spread_json(os.spread));
    spreads.push_back(std::move(o));
  }
  j["overlay_spreads"] = spreads;
  return j;
}

std::vector<HeldParameter> held_parameters(const Deployment& d, const Json& overlay_log) {
  std::vector<HeldParameter> out;
  const auto* b = dynamic_cast<const LinearA2ABackend*>(d.a2a_backend.get());
  if (!b || !d.decode_layout.moe_a2a) return out;
  std::set<std::string> set_by_overlay;
  if (overlay_log.is_object())
    for (const auto& a : overlay_log.value("applied", Json::array())) {
      std::vector<std::string> params;
      flatten(a.value("applied", Json::object()), a.value("kind", ""), params);
      set_by_overlay.insert(params.begin(), params.end());
    }
  const auto& specs = b->param_specs();
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string path = "fabric.a2a." + b->name() + "." + specs[i].name;
    if (!specs[i].fitted_by_default && !set_by_overlay.count(path))
      out.push_back(
          {path, b->params()[i], b->priors()[i], shipped_fits(path, "fabric:" + d.fabric.name)});
  }
  return out;
}

Json deployment_envelope(const Deployment& d, const CalibrationCorpus* corpus,
                         const Json& summary) {
  if (!corpus) return nullptr;
  const Coordinates c = deployment_coordinates(d);
  const Json log = d.profiles.value("profile_overlays", Json());
  Envelope e = locate(c, *corpus, log);
  if (e.nearest_fitted || (!e.inside && log.is_object() && log.contains("applied"))) {
    // A fitted deployment's interval needs the fits' residuals, and one outside their left-out
    // folds, neither of which the run's log carries: read the applied overlays' files then.
    Json fits = Json::object();
    for (const auto& o : log.value("overlays", Json::array())) {
      const std::string file = o.value("file", "");
      // The shared parse (sim/core/parsed_file_cache), validated when the run applied it: only
      // the fit block is copied.
      if (!file.empty()) fits[file] = JsonNode::load_file(file).raw().value("fit", Json::object());
    }
    e = locate(c, *corpus, log, &fits);
  }
  e.held = held_parameters(d, log);
  return envelope_json(e, c, *corpus, summary);
}

Json envelope_brief(const Json& e) {
  Json differs = Json::array(), params = Json::array(), iv = Json::object();
  for (const auto& g : e["nearest"]["differs"]) differs.push_back(g["coordinate"]);
  for (const auto& p : e["parameters"])
    if (p.value("extrapolated", false)) params.push_back(p["parameter"]);
  for (auto it = e["interval_90"].begin(); it != e["interval_90"].end(); ++it)
    iv[it.key()] = Json::array({it.value()["lo"], it.value()["hi"]});
  const Json& runs = e["nearest"]["runs"];
  return {{"inside", e["inside"]},
          {"nearest", runs.empty() ? Json("") : runs[0]},
          {"differs", differs},
          {"extrapolated_parameters", params},
          {"interval_90", iv}};
}

}  // namespace pdsim

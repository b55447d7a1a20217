#include "sim/fit/fold_spread.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/fit/deployment_spread.hpp"

namespace pdsim {

FoldSpread fold_spread(const Json& fit) {
  FoldSpread out;
  out.leave_out_by = fit.is_object() ? fit.value("leave_out_by", "run") : "run";
  out.families = metric_families();
  const Json folds = fit.is_object() ? fit.value("leave_one_out", Json::array()) : Json::array();
  std::vector<std::string> labels;
  // Per family, per fold: each left-out run's mean log ratio over the family's metrics.
  std::vector<std::vector<std::vector<double>>> errors(out.families.size());
  for (const auto& fold : folds) {
    labels.push_back(fold.value("left_out", ""));
    std::vector<std::string> runs;  // in residual order (run, then metric)
    for (const auto& r : fold.value("residuals", Json::array()))
      if (runs.empty() || runs.back() != r.value("run", "")) runs.push_back(r.value("run", ""));
    for (size_t f = 0; f < out.families.size(); ++f) {
      const auto& metrics = out.families[f].metrics;
      std::vector<double> per_run;
      for (const std::string& run : runs) {
        double sum = 0;
        int n = 0;
        for (const auto& r : fold["residuals"])
          if (r.value("run", "") == run && r.contains("log_ratio") &&
              std::find(metrics.begin(), metrics.end(), r.value("metric", "")) != metrics.end()) {
            sum += r["log_ratio"].get<double>();
            ++n;
          }
        if (n) per_run.push_back(sum / n);
      }
      errors[f].push_back(std::move(per_run));
    }
    out.folds.push_back(std::move(runs));
  }
  for (size_t f = 0; f < out.families.size(); ++f) fill_spread(out.families[f], labels, errors[f]);
  return out;
}

Json fold_spread_json(const FoldSpread& s) {
  Json fams = Json::array();
  for (const auto& f : s.families) {
    if (f.tau <= 0) continue;
    fams.push_back({{"family", f.family},
                    {"tau", f.tau},
                    {"runs", f.runs},
                    {"deployments", f.groups.size()},
                    {"inside_90_left_out", f.inside_90()}});
  }
  return {{"leave_out_by", s.leave_out_by}, {"families", fams}};
}

std::vector<size_t> fold_runs_in(const FoldSpread& s, const CalibrationCorpus& corpus,
                                 const std::vector<size_t>& pool) {
  std::vector<size_t> out;
  for (size_t r : pool)
    for (const auto& fold : s.folds)
      if (std::find(fold.begin(), fold.end(), corpus.runs[r].name) != fold.end()) {
        out.push_back(r);
        break;
      }
  return out;
}

std::string fold_spread_gap(const FoldSpread& s, const Coordinates& c,
                            const CalibrationCorpus& corpus, const std::vector<size_t>& tested) {
  if (tested.empty()) return "none of its folds' runs is in the corpus";
  // (a) every deployment's runs in one fold: a fold then stands for a deployment no fit saw.
  std::map<std::string, size_t> fold_of;
  for (size_t f = 0; f < s.folds.size(); ++f)
    for (size_t r : tested)
      if (std::find(s.folds[f].begin(), s.folds[f].end(), corpus.runs[r].name) !=
          s.folds[f].end()) {
        const auto [it, added] = fold_of.emplace(corpus.runs[r].deployment(), f);
        if (!added && it->second != f)
          return "its folds (by " + s.leave_out_by +
                 ") split a deployment's runs: they predicted points of a deployment, not a new "
                 "one";
      }
  // (b) a recombination of values the folds predicted.
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c[i].numeric) {
      const bool seen = std::any_of(tested.begin(), tested.end(), [&](size_t r) {
        return corpus.runs[r].coordinates[i].text == c[i].text;
      });
      if (!seen) return "no run its folds predicted had " + c[i].label + " " + c[i].value();
      continue;
    }
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (size_t r : tested) {
      lo = std::min(lo, corpus.runs[r].coordinates[i].number);
      hi = std::max(hi, corpus.runs[r].coordinates[i].number);
    }
    const double v = c[i].number, tol = 1e-9 * std::max(1.0, std::abs(v));
    if (v < lo - tol || v > hi + tol) {
      char buf[96];
      if (lo == hi)
        std::snprintf(buf, sizeof buf, " (its folds predicted only %.6g)", lo);
      else
        std::snprintf(buf, sizeof buf, " (its folds predicted %.6g to %.6g)", lo, hi);
      return c[i].label + " " + c[i].value() + " lies beyond every run its folds predicted" + buf;
    }
  }
  return "";
}

}  // namespace pdsim

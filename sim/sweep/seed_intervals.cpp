#include "sim/sweep/seed_intervals.hpp"

#include <algorithm>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/process_pool.hpp"
#include "sim/core/stats.hpp"
#include "sim/serve/actors/simulation.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {
namespace {

const std::vector<std::string>& metrics() {
  static const std::vector<std::string> m = {"p99_itl_ms",  "max_itl_ms",          "median_itl_ms",
                                             "p99_tpot_ms", "mean_tpot_ms",        "mean_ttft_ms",
                                             "p99_ttft_ms", "mean_e2e_latency_ms", "duration"};
  return m;
}

double at_or0(const Json& j, const std::string& group, const std::string& k) {
  return j.contains(group) && j[group].contains(k) && j[group][k].is_number()
             ? j[group][k].get<double>()
             : 0.0;
}

// What a seed's worker sends back: the metrics, the failure, the worst gap.
Json seed_record(const Json& summary, uint64_t seed) {
  Json r = {{"seed", seed}};
  for (const auto& m : metrics()) r[m] = summary.contains(m) ? summary[m] : Json(nullptr);
  r["failure"] = summary.contains("predicted_failure") ? summary["predicted_failure"] : Json();
  r["worst_gap"] = worst_gap(summary);
  return r;
}

}  // namespace

Json worst_gap(const Json& summary) {
  const Json& t = summary.at("pdsim").at("tail");
  if (!t.contains("max") || !t.contains("median")) return Json(nullptr);
  const Json &mx = t["max"], &md = t["median"];
  const double gap_ms = (mx.value("itl_us", 0.0) - md.value("itl_us", 0.0)) / 1e3;
  Json out = {{"max_itl_ms", mx.value("itl_us", 0.0) / 1e3}, {"excess_over_median_ms", gap_ms}};
  std::string best;
  double best_ms = 0;
  for (const auto& [k, v] : mx["mechanisms_us"].items()) {
    const double e = (v.get<double>() - at_or0(md, "mechanisms_us", k)) / 1e3;
    if (e > best_ms) {
      best = k;
      best_ms = e;
    }
  }
  out["mechanism"] = best.empty() ? Json("none") : Json(best);
  out["mechanism_added_ms"] = best_ms;
  out["share_of_excess"] = gap_ms > 0 ? Json(best_ms / gap_ms) : Json(nullptr);
  std::string term;
  double term_ms = 0;
  for (const auto& [k, v] : mx["terms_us"].items()) {
    const double e = (v.get<double>() - at_or0(md, "terms_us", k)) / 1e3;
    if (term.empty() || e > term_ms) {
      term = k;
      term_ms = e;
    }
  }
  out["term"] = term;
  out["term_added_ms"] = term_ms;
  return out;
}

std::vector<Json> seed_intervals(const std::vector<Scenario>& scenarios, uint64_t first_seed,
                                 int seeds, int jobs, const std::vector<Json>& first_summaries) {
  if (seeds < 2) throw InputError("--seeds", "", "expected at least 2 seeds");
  for (const auto& s : scenarios) build_deployment(s);  // input errors before forking
  const size_t n = static_cast<size_t>(seeds);
  std::vector<Json> records(scenarios.size() * n);
  std::vector<TaskOutcome> errors(records.size());
  std::vector<size_t> todo;  // indices of records still to simulate
  for (size_t k = 0; k < records.size(); ++k) {
    if (k % n == 0 && k / n < first_summaries.size())
      records[k] = seed_record(first_summaries[k / n], first_seed);
    else
      todo.push_back(k);
  }
  run_in_processes(
      todo.size(), jobs,
      [&](size_t i) {
        const size_t k = todo[i];
        const uint64_t seed = first_seed + k % n;
        return seed_record(bench_summary(simulate(build_deployment(scenarios[k / n]), seed)), seed);
      },
      [&](size_t i, TaskOutcome o) {
        if (o.ok)
          records[todo[i]] = std::move(o.result);
        else
          errors[todo[i]] = std::move(o);
      },
      "simulation of a seed");
  for (size_t k = 0; k < errors.size(); ++k)
    if (!errors[k].error.empty())
      throw PropagatedError(errors[k].code, scenarios[k / n].name + ", seed " +
                                                std::to_string(first_seed + k % n) + ": " +
                                                errors[k].error);
  std::vector<Json> out;
  for (size_t si = 0; si < scenarios.size(); ++si) {
    Json e = {{"scenario", scenarios[si].name},
              {"seeds", seeds},
              {"first_seed", first_seed},
              {"metrics", Json::object()},
              {"failures", Json::array()},
              {"note",
               "5-95 % over seeds (workload, routing, acceptance and tail-event draws), profiles "
               "at their point values; failed seeds have no latencies and are left out"}};
    Json by_seed = Json::array();
    std::map<std::string, int> counts;
    for (size_t j = 0; j < n; ++j) {
      const Json& r = records[si * n + j];
      if (!r["failure"].is_null())
        e["failures"].push_back({{"seed", r["seed"]}, {"failure", r["failure"]}});
      if (!r["worst_gap"].is_null() && r["failure"].is_null()) {
        Json w = r["worst_gap"];
        w["seed"] = r["seed"];
        ++counts[w["mechanism"].get<std::string>()];
        by_seed.push_back(std::move(w));
      }
    }
    for (const auto& m : metrics()) {
      std::vector<double> v;
      for (size_t j = 0; j < n; ++j)
        if (records[si * n + j][m].is_number()) v.push_back(records[si * n + j][m].get<double>());
      if (v.empty()) continue;
      std::sort(v.begin(), v.end());
      e["metrics"][m] = {{"p05", percentile_sorted(v, 5)},
                         {"p50", percentile_sorted(v, 50)},
                         {"p95", percentile_sorted(v, 95)},
                         {"min", v.front()},
                         {"max", v.back()}};
    }
    e["worst_gap"] = {{"by_seed", by_seed}, {"mechanisms", counts}};
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace pdsim

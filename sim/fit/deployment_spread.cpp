#include "sim/fit/deployment_spread.hpp"

#include <cmath>
#include <map>

#include "sim/fit/loo_interval.hpp"

namespace pdsim {
namespace {

struct Err {
  size_t group;
  double e;
};

// tau² over the groups except `skip` (npos: none); 0 with fewer than two groups.
double tau_of(const std::vector<std::vector<double>>& by_group, size_t skip) {
  double sum = 0;
  int n = 0;
  for (size_t g = 0; g < by_group.size(); ++g) {
    if (g == skip || by_group[g].empty()) continue;
    double s2 = 0;
    for (double e : by_group[g]) s2 += e * e;
    sum += s2 / static_cast<double>(by_group[g].size());
    ++n;
  }
  return n >= 2 ? std::sqrt(sum / n) : 0.0;
}

}  // namespace

std::vector<MetricSpread> metric_families() {
  return {
      {"per-token time",
       "mean and median TPOT and ITL",
       {"mean_tpot_ms", "median_tpot_ms", "mean_itl_ms", "median_itl_ms"},
       0,
       0,
       {}},
      {"time to first token", "mean and median TTFT", {"mean_ttft_ms", "median_ttft_ms"}, 0, 0, {}},
      {"throughput",
       "input, output and request throughput",
       {"input_throughput", "output_throughput", "request_throughput"},
       0,
       0,
       {}},
      {"end-to-end",
       "benchmark duration, mean and median E2E latency",
       {"duration", "mean_e2e_latency_ms", "median_e2e_latency_ms"},
       0,
       0,
       {}},
  };
}

void fill_spread(MetricSpread& f, const std::vector<std::string>& names,
                 const std::vector<std::vector<double>>& by_group) {
  f.runs = 0;
  f.groups.clear();
  f.tau = tau_of(by_group, by_group.size());
  for (size_t g = 0; g < by_group.size(); ++g) {
    if (by_group[g].empty()) continue;
    SpreadGroup sg;
    sg.deployment = names[g];
    sg.runs = static_cast<int>(by_group[g].size());
    double s = 0, s2 = 0;
    for (double e : by_group[g]) {
      s += e;
      s2 += e * e;
    }
    sg.mean_log_error = s / sg.runs;
    sg.rms_log_error = std::sqrt(s2 / sg.runs);
    sg.tau_without = tau_of(by_group, g);
    for (double e : by_group[g])
      if (sg.tau_without > 0 && std::abs(e) <= kZ90 * sg.tau_without) ++sg.inside_90;
    f.runs += sg.runs;
    f.groups.push_back(sg);
  }
}

std::vector<MetricSpread> estimate_spreads(const std::vector<CorpusRun>& runs) {
  std::vector<MetricSpread> out = metric_families();
  for (auto& f : out) {
    std::vector<std::string> names;  // deployments in corpus order (deterministic)
    std::map<std::string, size_t> index;
    std::vector<std::vector<double>> by_group;
    for (const auto& r : runs) {
      if (!r.fitted_by.empty()) continue;
      double sum = 0;
      int n = 0;
      for (const auto& p : r.points)
        for (const auto& m : f.metrics)
          if (p.metric == m) {
            sum += std::log(p.predicted / p.measured);
            ++n;
          }
      if (n == 0) continue;
      const std::string d = r.deployment();
      auto [it, added] = index.emplace(d, names.size());
      if (added) {
        names.push_back(d);
        by_group.emplace_back();
      }
      by_group[it->second].push_back(sum / n);
    }
    fill_spread(f, names, by_group);
  }
  return out;
}

}  // namespace pdsim

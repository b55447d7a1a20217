#include "sim/serve/mechanisms/tail_log.hpp"

#include "sim/core/stats.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace pdsim {
namespace {

Json record_json(const IterationRecord& r) {
  Json terms = Json::object(), mech = Json::object();
  for (const auto& [k, v] : r.terms.named()) terms[k] = v;
  for (const auto& [k, v] : r.mech.named()) mech[k] = v;
  return Json{{"instance", r.instance},      {"end_s", r.end_s},
              {"itl_us", r.duration_us},     {"requests", r.requests},
              {"admitted", r.mech.admitted}, {"loaded_a2a_phases", r.mech.loaded_phases},
              {"terms_us", terms},           {"mechanisms_us", mech}};
}

template <class Log>
Json summary_of(const Log& log, int worst_listed) {
  // (duration, position) pairs sorted longest first, ties by position: the order a stable sort
  // of positions by duration would give, without indexing the log inside the comparator.
  std::vector<std::pair<double, size_t>> keyed;  // (duration, position in the log)
  double samples = 0;
  for (size_t i = 0; i < log.size(); ++i)
    if (log[i].requests > 0) {
      keyed.emplace_back(log[i].duration_us, i);
      samples += log[i].requests;
    }
  Json out = Json{{"itl_samples", samples}, {"iterations", keyed.size()}};
  if (keyed.empty()) return out;
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  // The records themselves in that order: the passes below do not index the log (a deque).
  std::vector<const IterationRecord*> order(keyed.size());
  for (size_t j = 0; j < keyed.size(); ++j) order[j] = &log[keyed[j].second];
  // Weighted median: the sample at half the weight counted from the top.
  double acc = 0;
  const IterationRecord* median = order.back();
  for (const IterationRecord* r : order) {
    acc += r->requests;
    if (acc >= samples / 2) {
      median = r;
      break;
    }
  }
  // Worst 1% of samples: whole iterations from the top until they hold ≥ 1% of the samples.
  const double want = std::max(1.0, std::ceil(0.01 * samples));
  double got = 0;
  std::map<std::string, double> terms, mech, fired;
  size_t n = 0;
  for (const IterationRecord* rp : order) {
    if (got >= want) break;
    const auto& r = *rp;
    const double w = r.requests;
    got += w;
    ++n;
    for (const auto& [k, v] : r.terms.named()) terms[k] += w * v;
    for (const auto& [k, v] : r.mech.named()) {
      mech[k] += w * v;
      fired[k] += v > 0 ? w : 0;
    }
  }
  Json top = Json{{"samples", got}, {"iterations", n}, {"threshold_us", order[n - 1]->duration_us}};
  double mean_itl = 0, mean_requests = 0;
  for (size_t j = 0; j < n; ++j) {
    mean_itl += order[j]->duration_us * order[j]->requests / got;
    mean_requests += static_cast<double>(order[j]->requests) * order[j]->requests / got;
  }
  top["mean_itl_us"] = mean_itl;
  top["mean_requests"] = mean_requests;  // requests in the iteration, per sample
  for (auto& [k, v] : terms) top["terms_us"][k] = v / got;
  for (auto& [k, v] : mech) top["mechanisms_us"][k] = v / got;
  for (auto& [k, v] : fired) top["fired_fraction"][k] = v / got;
  // Over every sample: how often each mechanism fired, its mean when it did, and its largest.
  // Per mechanism (mechanism_names() order): weight fired, Σ w·v when fired, max.
  const std::vector<std::string>& names = mechanism_names();
  std::vector<std::array<double, 3>> all(names.size());
  for (const IterationRecord* r : order) {
    for (size_t k = 0; k < names.size(); ++k) {
      const double v = r->mech[k];
      auto& a = all[k];
      if (v > 0) {
        a[0] += r->requests;
        a[1] += r->requests * v;
      }
      a[2] = std::max(a[2], v);
    }
  }
  for (size_t k = 0; k < all.size(); ++k) {
    const auto& a = all[k];
    out["all"][names[k]] = Json{{"fired_fraction", a[0] / samples},
                                {"mean_when_fired_us", a[0] > 0 ? a[1] / a[0] : 0.0},
                                {"max_us", a[2]}};
  }
  // PFC / congestion spreading needs a flow on the decode nodes' paths during the all-to-all:
  // how often decode iterations overlapped a KV / PP flow there, and the stall it caused
  // (fabric_background, packet fidelity; 0 at analytic fidelity).
  {
    const MechanismId bg = mechanism_id("fabric_background");
    std::vector<double> stall;
    double w = 0;
    for (const IterationRecord* r : order)
      if (r->mech.loaded_phases > 0) {
        stall.push_back(r->mech[bg]);
        w += r->requests;
      }
    std::sort(stall.begin(), stall.end());
    out["kv_overlap"] = Json{
        {"iterations_share", static_cast<double>(stall.size()) / static_cast<double>(order.size())},
        {"samples_share", w / samples},
        {"stall_mean_us", stall.empty() ? 0.0
                                        : std::accumulate(stall.begin(), stall.end(), 0.0) /
                                              static_cast<double>(stall.size())},
        {"stall_p99_us", stall.empty() ? 0.0 : percentile_sorted(stall, 99)},
        {"stall_max_us", stall.empty() ? 0.0 : stall.back()}};
  }
  out["median"] = record_json(*median);
  out["top1pct"] = top;
  out["max"] = record_json(*order.front());
  Json worst = Json::array();
  for (size_t j = 0; j < order.size() && static_cast<int>(j) < worst_listed; ++j)
    worst.push_back(record_json(*order[j]));
  out["worst_iterations"] = worst;
  return out;
}

}  // namespace

Json tail_summary(const std::deque<IterationRecord>& log, int worst_listed) {
  return summary_of(log, worst_listed);
}

Json tail_summary(const std::vector<IterationRecord>& log, int worst_listed) {
  return summary_of(log, worst_listed);
}

}  // namespace pdsim

#include "reports/html_series.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/sweep/analysis.hpp"

namespace pdsim {

std::vector<double> pooled_itl_ms(const SimResults& r) {
  std::vector<double> out;
  for (const auto& q : r.requests) {
    if (!q.completed) continue;
    for (size_t i = 1; i < q.chunk_times_s.size(); ++i)
      out.push_back(s_to_ms(q.chunk_times_s[i] - q.chunk_times_s[i - 1]));
  }
  return out;
}

std::vector<CdfPoint> ecdf(std::vector<double> samples, size_t max_points) {
  std::vector<CdfPoint> out;
  const size_t n = samples.size();
  if (n == 0 || max_points == 0) return out;
  std::sort(samples.begin(), samples.end());
  const size_t m = std::min(n, max_points);
  for (size_t k = 1; k <= m; ++k) {
    const size_t rank = (k * n + m - 1) / m;  // ceil(k·n/m), 1-based
    const CdfPoint p{samples[rank - 1], static_cast<double>(rank) / static_cast<double>(n)};
    if (!out.empty() && out.back().x == p.x)
      out.back().fraction = p.fraction;
    else
      out.push_back(p);
  }
  return out;
}

std::vector<CdfPoint> tail_points(std::vector<double> samples, int per_decade) {
  std::vector<CdfPoint> out;
  const size_t n = samples.size();
  if (n == 0 || per_decade <= 0) return out;
  std::sort(samples.begin(), samples.end());
  const double dn = static_cast<double>(n);
  // Levels of the fraction ≥ x: 1, 10^(−1/k), … while above 1/n; then the maximum.
  std::vector<size_t> counts;  // samples at or above the point
  for (int k = 0;; ++k) {
    const double level = std::pow(10.0, -static_cast<double>(k) / per_decade);
    const auto c = static_cast<size_t>(std::ceil(level * dn - 1e-9));
    if (c <= 1) break;
    if (counts.empty() || c < counts.back()) counts.push_back(c);
  }
  counts.push_back(1);
  for (size_t c : counts) {
    const double x = samples[n - c];
    // Every sample equal to x counts: from the first of its ties.
    const auto first = std::lower_bound(samples.begin(), samples.end(), x) - samples.begin();
    const CdfPoint p{x, (dn - static_cast<double>(first)) / dn};
    if (!out.empty() && out.back().x == p.x) continue;
    out.push_back(p);
  }
  return out;
}

std::vector<KvSpan> kv_spans(const SimResults& r) {
  std::vector<KvSpan> out;
  for (const auto& q : r.requests)
    if (q.completed && q.kv_start_s >= 0 && q.kv_end_s >= q.kv_start_s)
      out.push_back({q.id, q.kv_start_s, q.kv_end_s});
  return out;
}

int max_concurrent(const std::vector<KvSpan>& spans) {
  std::vector<std::pair<double, int>> ev;
  for (const auto& s : spans) {
    ev.push_back({s.start_s, +1});
    ev.push_back({s.end_s, -1});
  }
  std::sort(ev.begin(), ev.end());  // at equal times -1 sorts before +1
  int cur = 0, best = 0;
  for (const auto& [t, d] : ev) best = std::max(best, cur += d);
  return best;
}

std::optional<double> SweepResultPoint::metric(const std::string& key) const {
  if (!summary.is_object() || !summary.contains(key) || !summary.at(key).is_number())
    return std::nullopt;
  return summary.at(key).get<double>();
}

std::optional<double> SweepResultPoint::throughput_per_gpu() const {
  auto t = metric("output_throughput");
  if (!t || gpus <= 0) return std::nullopt;
  return *t / gpus;
}

std::vector<SweepResultPoint> parse_sweep_points(const std::vector<Json>& lines,
                                                 const std::string& file) {
  std::vector<SweepResultPoint> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const JsonNode n = JsonNode::from_json(lines[i], file + " line " + std::to_string(i + 1));
    if (!n.is_object()) n.fail("expected a JSON object (one sweep point)");
    SweepResultPoint p;
    p.status = n.at("status").string();
    if (p.status != "ok" && p.status != "infeasible" && p.status != "error")
      n.at("status").fail("expected \"ok\", \"infeasible\" or \"error\", got \"" + p.status + "\"");
    p.id =
        n.has("id") ? (n.at("id").is_string() ? n.at("id").string() : n.at("id").raw().dump()) : "";
    if (n.has("point")) p.point = static_cast<int>(n.at("point").integer());
    if (p.id.empty()) p.id = std::to_string(p.point >= 0 ? p.point : static_cast<int>(i));
    p.reason =
        n.has_nullable("reason") && n.at("reason").is_string() ? n.at("reason").string() : "";
    // Sweep lines are pdsim's own output: null there means "not computed" (a failed point).
    if (n.has_nullable("gpus")) p.gpus = n.at("gpus").non_negative();
    if (n.has("overrides")) {
      if (!n.at("overrides").is_object())
        n.at("overrides").fail("expected an object {path: value}");
      p.overrides = n.at("overrides").raw();
    }
    if (n.has_nullable("summary")) {
      if (!n.at("summary").is_object()) n.at("summary").fail("expected an object");
      p.summary = n.at("summary").raw();
    }
    if (n.has_nullable("slo") && n.at("slo").is_object()) p.slo = n.at("slo").raw();
    if (n.has_nullable("envelope") && n.at("envelope").is_object()) {
      const JsonNode e = n.at("envelope");
      if (e.bool_or("inside", false)) {
        p.envelope = "inside";
      } else {
        p.envelope = "outside:";
        const JsonNode d = e.at("differs");
        for (size_t k = 0; k < d.size(); ++k) p.envelope += (k ? ", " : " ") + d.at(k).string();
      }
    }
    if (p.status == "ok" && p.gpus <= 0)
      n.at("gpus").fail("expected a positive GPU count for an ok point");
    std::string config, short_config;
    for (const auto& [k, v] : p.overrides.items()) {
      if (k == "workload.request_rate") {
        if (v.is_number()) p.rate = v.get<double>();
        continue;
      }
      const std::string value = v.is_string() ? v.get<std::string>() : v.dump();
      config += (config.empty() ? "" : ", ") + k + "=" + value;
      const auto dot = k.find_last_of('.');
      short_config += (short_config.empty() ? "" : ", ") +
                      (dot == std::string::npos ? k : k.substr(dot + 1)) + "=" + value;
    }
    p.config = config.empty() ? "base" : config;
    p.short_config = short_config.empty() ? "base" : short_config;
    if (!p.rate) p.rate = p.metric("request_rate");
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<size_t> pareto_frontier(const std::vector<SweepResultPoint>& points) {
  std::vector<size_t> idx;
  std::vector<FrontierInput> xy;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto x = points[i].metric("mean_tpot_ms");
    const auto y = points[i].throughput_per_gpu();
    if (points[i].status != "ok" || !x || !y) continue;
    idx.push_back(i);
    xy.push_back({*x, *y});
  }
  std::vector<size_t> out;
  for (size_t k : pareto_frontier(xy)) out.push_back(idx[k]);  // the frontier `pdsim sweep` reports
  return out;
}

}  // namespace pdsim

#include "sim/serve/actors/elastic_summary.hpp"

#include <algorithm>

#include "sim/core/stats.hpp"

namespace pdsim {
namespace {

// bench_serving's TTFT and ITL (gaps between streamed chunks) of the requests arriving in
// [from_s, to_s).
Json window(const std::vector<Request>& requests, double from_s, double to_s) {
  std::vector<double> ttft, itl;
  for (const auto& q : requests) {
    if (q.rec.arrival_s < from_s || q.rec.arrival_s >= to_s) continue;
    ttft.push_back(q.rec.ttft_s() * 1e3);
    const auto& c = q.rec.chunk_times_s;
    for (size_t i = 1; i < c.size(); ++i) itl.push_back((c[i] - c[i - 1]) * 1e3);
  }
  Json w = {{"from_s", from_s}, {"requests", ttft.size()}};
  if (to_s < 1e300) w["to_s"] = to_s;
  if (ttft.empty()) return w;
  double sum = 0;
  for (double v : ttft) sum += v;
  w["mean_ttft_ms"] = sum / static_cast<double>(ttft.size());
  w["p99_ttft_ms"] = percentile_of(ttft, 99);
  if (!itl.empty()) {
    double s2 = 0;
    for (double v : itl) s2 += v;
    w["mean_itl_ms"] = s2 / static_cast<double>(itl.size());
    w["p99_itl_ms"] = percentile_of(itl, 99);
  }
  return w;
}

}  // namespace

// Per join: requests the instance took and TTFT / ITL before the join, while it joins and once it
// serves. Per leave: requests it took, when it had drained (its last request finished decode, or
// for prefill its last KV transfer), TTFT / ITL before and after.
Json elastic_summary(const Deployment& d, const Json& autoscale_joins,
                     const std::vector<Request>& requests) {
  Json out = Json::array();
  Json changes = d.joins.description;
  for (const Json& j : autoscale_joins) changes.push_back(j);
  for (const Json& j : changes) {
    Json e = j;
    const bool decode = j["role"] == "decode";
    const int inst = j["instance"].get<int>();
    int taken = 0;
    double drained = 0;
    for (const auto& q : requests) {
      if ((decode ? q.rec.decode_instance : q.rec.prefill_instance) != inst) continue;
      ++taken;
      drained = std::max(drained, decode ? q.rec.finish_s : q.rec.kv_end_s);
    }
    e["requests_served"] = taken;
    if (j.contains("leave_s")) {
      const double leave = j["leave_s"].get<double>();
      e["drained_s"] = std::max(drained, leave);
      e["before_leave"] = window(requests, 0, leave);
      e["after_leave"] = window(requests, leave, 1e308);
    } else {
      const double join = j["join_s"].get<double>(), ready = j["ready_s"].get<double>();
      e["before_join"] = window(requests, 0, join);
      e["joining"] = window(requests, join, ready);
      e["after_ready"] = window(requests, ready, 1e308);
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace pdsim

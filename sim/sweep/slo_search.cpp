#include "sim/sweep/slo_search.hpp"

#include <sstream>

namespace pdsim {

std::vector<std::string> slo_violations(const SloSpec& slo, const Json& summary,
                                        int expected_requests) {
  std::vector<std::string> out;
  auto check = [&](const char* key, const std::optional<double>& limit) {
    if (!limit) return;
    const Json& v = summary.contains(key) ? summary.at(key) : Json();
    if (!v.is_number()) {
      out.push_back(std::string(key) + " missing");
      return;
    }
    const double x = v.get<double>();
    if (x > *limit) {
      std::ostringstream s;
      s << key << " " << x << " > " << *limit;
      out.push_back(s.str());
    }
  };
  check("p99_ttft_ms", slo.p99_ttft_ms);
  check("mean_tpot_ms", slo.mean_tpot_ms);
  check("p99_tpot_ms", slo.p99_tpot_ms);
  check("p99_itl_ms", slo.p99_itl_ms);
  // An offered rate the client could not keep to is not a rate the configuration served:
  // max_concurrency held requests back for longer than the search's resolution.
  const Json* load = &summary;
  for (const char* k : {"pdsim", "offered_load"})
    load = load && load->is_object() && load->contains(k) ? &load->at(k) : nullptr;
  if (load && load->is_object()) {
    const double wait = load->value("admission_wait_s", 0.0),
                 span = load->value("scheduled_span_s", 0.0);
    if (wait > slo.rel_tolerance * span) {
      std::ostringstream s;
      s << "offered rate not reached: max_concurrency held requests back " << wait << " s over a "
        << span << " s schedule";
      out.push_back(s.str());
    }
  }
  const int completed = summary.value("completed", 0);
  if (completed < expected_requests)
    out.push_back("completed " + std::to_string(completed) + " < " +
                  std::to_string(expected_requests));
  return out;
}

Json SloSearchResult::to_json() const {
  return Json{{"max_request_rate", max_rate ? Json(*max_rate) : Json()},
              {"min_failing_rate", fail_rate ? Json(*fail_rate) : Json()},
              {"evaluations", evaluations}};
}

SloSearchResult search_max_rate(const SloSpec& slo, int expected_requests,
                                const std::function<Json(double)>& summary_at) {
  SloSearchResult r;
  auto meets = [&](double rate) {
    Json s = summary_at(rate);
    const std::vector<std::string> v = slo_violations(slo, s, expected_requests);
    r.evaluations.push_back({{"request_rate", rate},
                             {"achieved_request_rate", s.value("request_throughput", Json())},
                             {"meets", v.empty()},
                             {"violations", v}});
    if (v.empty()) {
      r.max_rate = rate;
      r.summary = std::move(s);
    } else {
      r.fail_rate = rate;
    }
    return v.empty();
  };
  double lo = slo.rate_lo, hi = slo.rate_hi;
  if (meets(hi)) return r;
  if (!meets(lo)) return r;
  while (hi - lo > slo.rel_tolerance * lo) {
    const double mid = 0.5 * (lo + hi);
    (meets(mid) ? lo : hi) = mid;
  }
  return r;
}

}  // namespace pdsim

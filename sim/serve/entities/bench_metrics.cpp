#include "sim/serve/entities/bench_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/core/excerpt.hpp"
#include "sim/core/stats.hpp"
#include "sim/core/units.hpp"

namespace pdsim {
namespace {

struct Samples {
  std::vector<double> ttft_s, e2e_s, tpot_s, itl_s;
  int64_t completed = 0, input_tokens = 0, output_tokens = 0;
  int64_t spec_tokens = 0, spec_chunks = 0;  // chunks after the first
};

Samples collect(const SimResults& r) {
  Samples s;
  for (const auto& q : r.requests) {
    if (!q.completed) continue;
    ++s.completed;
    s.input_tokens += q.input_len;
    s.output_tokens += q.output_len;
    const double ttft = q.ttft_s(), e2e = q.e2e_s();
    s.ttft_s.push_back(ttft);
    s.e2e_s.push_back(e2e);
    if (q.output_len > 1) s.tpot_s.push_back((e2e - ttft) / (q.output_len - 1));
    for (size_t i = 1; i < q.chunk_times_s.size(); ++i)
      s.itl_s.push_back(q.chunk_times_s[i] - q.chunk_times_s[i - 1]);
    for (size_t i = 1; i < q.chunk_tokens.size(); ++i) {
      s.spec_tokens += q.chunk_tokens[i];
      ++s.spec_chunks;
    }
  }
  return s;
}

// bench_serving's 1-s buckets from the earliest arrival of a completed request: chunks per
// bucket (it calls them tokens) and requests in flight per bucket, both maxima.
void add_peaks(const SimResults& r, Json& out) {
  double min_start = INFINITY, max_end = -INFINITY;
  for (const auto& q : r.requests) {
    if (!q.completed) continue;
    min_start = std::min(min_start, q.arrival_s);
    max_end = std::max(max_end, q.finish_s);
  }
  if (!(min_start <= max_end)) {
    out["max_output_tokens_per_s"] = 0.0;
    out["max_concurrent_requests"] = 0;
    return;
  }
  // Sparse buckets (memory per request, not per simulated second): a run of 10^12 s is as cheap
  // as one of 100 s. The maxima equal bench_serving's over its dense list of buckets.
  const auto buckets = static_cast<int64_t>(std::ceil(max_end - min_start)) + 1;
  auto bucket = [&](double t) { return static_cast<int64_t>(t - min_start); };  // int() truncates
  std::map<int64_t, double> chunks;
  std::map<int64_t, int64_t> inflight_delta;  // +1 at the arrival bucket, −1 after the last
  for (const auto& q : r.requests) {
    if (!q.completed) continue;
    // A request's chunks are in time order: count each run of one bucket, then add it once
    // (whole counts, so the sums are exact in any order).
    int64_t run_b = -1;
    double run_n = 0;
    for (double t : q.chunk_times_s) {
      const int64_t b = bucket(t);
      if (b != run_b) {
        if (run_n > 0) chunks[run_b] += run_n;
        run_b = b;
        run_n = 0;
      }
      if (b >= 0 && b < buckets) run_n += 1;
    }
    if (run_n > 0) chunks[run_b] += run_n;
    const int64_t first = bucket(q.arrival_s);
    const int64_t last = std::min(bucket(q.finish_s) + 1, buckets);
    if (first >= last) continue;
    ++inflight_delta[first];
    --inflight_delta[last];
  }
  double max_chunks = 0;
  for (const auto& [b, n] : chunks) max_chunks = std::max(max_chunks, n);
  int64_t inflight = 0, max_inflight = 0;
  for (const auto& [b, d] : inflight_delta) {
    inflight += d;
    max_inflight = std::max(max_inflight, inflight);
  }
  out["max_output_tokens_per_s"] = max_chunks;
  out["max_concurrent_requests"] = max_inflight;
}

void add_ms(Json& out, const std::string& name, const std::vector<double>& samples_s,
            std::initializer_list<const char*> stats) {
  const Distribution d = describe(samples_s);
  for (const char* st : stats) {
    const std::string k = st;
    double v = 0;
    if (k == "mean")
      v = d.mean;
    else if (k == "median")
      v = d.median;
    else if (k == "std")
      v = d.std;
    else if (k == "p90")
      v = d.p90;
    else if (k == "p95")
      v = d.p95;
    else if (k == "p99")
      v = d.p99;
    out[k + "_" + name + "_ms"] = s_to_ms(v);
  }
}

Json rate(double amount, double duration_s) {
  return duration_s > 0 ? Json(amount / duration_s) : Json(nullptr);
}

// bench_serving's run arguments, from the client's settings.
void add_workload(const SimResults& r, Json& out) {
  out["backend"] = "pdsim";
  out["dataset_name"] = "random";
  for (const char* k : {"request_rate", "max_concurrency", "random_input_len", "random_output_len",
                        "random_range_ratio"})
    out[k] = nullptr;
  if (!r.workload) return;
  const WorkloadConfig& w = *r.workload;
  out["dataset_name"] = w.dataset;
  out["request_rate"] = std::isinf(w.request_rate) ? Json("inf") : Json(w.request_rate);
  // bench_serving writes None for an unset --max-concurrency.
  if (w.max_concurrency > 0) out["max_concurrency"] = w.max_concurrency;
  out["random_input_len"] = w.input_len;
  out["random_output_len"] = w.output_len;
  out["random_range_ratio"] = w.range_ratio;
}

}  // namespace

Json profiles_provenance(const Json& profiles) {
  Json out = Json::object();
  if (!profiles.is_object()) return out;
  for (const auto& [kind, p] : profiles.items()) {
    if (kind == "input_warnings") continue;  // in the summary's pdsim block itself
    Json entry = Json::object();
    if (p.is_object())
      for (const char* k : {"name", "schema", "provenance"})
        if (p.contains(k)) entry[k] = p.at(k);
    out[kind] = entry;
  }
  return out;
}

Json bench_summary(const SimResults& r) {
  const Samples s = collect(r);
  const double dur = r.duration_s;
  Json out = Json::object();
  add_workload(r, out);
  out["duration"] = dur;
  out["completed"] = s.completed;
  out["total_input_tokens"] = s.input_tokens;
  out["total_output_tokens"] = s.output_tokens;
  out["request_throughput"] = rate(static_cast<double>(s.completed), dur);
  out["input_throughput"] = rate(static_cast<double>(s.input_tokens), dur);
  out["output_throughput"] = rate(static_cast<double>(s.output_tokens), dur);
  out["total_throughput"] = rate(static_cast<double>(s.input_tokens + s.output_tokens), dur);
  double e2e_sum_s = 0;
  for (double e : s.e2e_s) e2e_sum_s += e;
  out["concurrency"] = rate(e2e_sum_s, dur);
  out["accept_length"] =
      (r.speculative && s.spec_chunks > 0)
          ? Json(static_cast<double>(s.spec_tokens) / static_cast<double>(s.spec_chunks))
          : Json(nullptr);
  add_ms(out, "e2e_latency", s.e2e_s, {"mean", "median", "std", "p90", "p99"});
  add_ms(out, "ttft", s.ttft_s, {"mean", "median", "std", "p99"});
  add_ms(out, "tpot", s.tpot_s, {"mean", "median", "std", "p99"});
  add_ms(out, "itl", s.itl_s, {"mean", "median", "std", "p95", "p99"});
  out["max_itl_ms"] = s_to_ms(max_of(s.itl_s));
  add_peaks(r, out);

  // A run that a library would have aborted has no latencies (tail_mechanism.hpp).
  const Json failure = r.failure ? write_fields(*r.failure) : Json(nullptr);
  if (r.failure) {
    out["predicted_failure"] = failure;
    for (auto& [k, v] : out.items())
      if (v.is_number() && (k.size() > 3 && k.compare(k.size() - 3, 3, "_ms") == 0)) v = nullptr;
    for (const char* k : {"duration", "completed", "request_throughput", "input_throughput",
                          "output_throughput", "total_throughput", "concurrency"})
      out[k] = nullptr;
  }
  Json pd = r.extras.is_object() ? r.extras : Json::object();
  pd["failure"] = failure;
  pd["seed"] = r.seed;
  pd["scenario"] = r.scenario_name;
  pd["profiles"] = profiles_provenance(r.profiles);
  // Inputs that changed nothing (sim/scenario/no_effect.hpp, overlays that fit no profile).
  if (r.profiles.is_object() && r.profiles.contains("input_warnings"))
    pd["input_warnings"] = r.profiles.at("input_warnings");
  out["pdsim"] = std::move(pd);
  return out;
}

}  // namespace pdsim

#pragma once
// What a serving simulation produces: one record per request (timestamps of every streamed
// chunk) plus simulator extras. Summaries with bench_serving semantics are computed from these
// records by bench_metrics.hpp, never inside the simulation actors.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/fields.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/entities/predicted_failure.hpp"

namespace pdsim {

struct RequestRecord {
  int id = 0;
  double arrival_s = 0;  // request sent by the client (bench_serving's start of the request)
  int input_len = 0;
  int output_len = 0;  // tokens the request must generate
  int prefill_instance = -1, decode_instance = -1, decode_rank = -1;
  double decode_reserved_s = -1;  // KV slots reserved on the decode rank (bootstrap done)
  double prefill_start_s = -1, prefill_end_s = -1;
  double kv_start_s = -1, kv_end_s = -1;
  double finish_s = -1;               // last chunk streamed
  std::vector<double> chunk_times_s;  // every streamed chunk, first token first
  std::vector<int> chunk_tokens;      // tokens per chunk (speculative chunks carry several)
  bool completed = false;
  double ttft_s() const { return chunk_times_s.empty() ? 0 : chunk_times_s.front() - arrival_s; }
  double e2e_s() const { return finish_s - arrival_s; }

  template <class V>
  static void declare(V& v) {
    using R = RequestRecord;
    v.field(&R::id, "id");
    v.field(&R::arrival_s, "arrival_s", {.unit = "s"});
    v.field(&R::input_len, "input_len", {.unit = "tokens"});
    v.field(&R::output_len, "output_len", {.unit = "tokens"});
    v.field(&R::prefill_instance, "prefill_instance");
    v.field(&R::decode_instance, "decode_instance");
    v.field(&R::decode_rank, "decode_rank");
    v.field(&R::decode_reserved_s, "decode_reserved_s", {.unit = "s"});
    v.field(&R::prefill_start_s, "prefill_start_s", {.unit = "s"});
    v.field(&R::prefill_end_s, "prefill_end_s", {.unit = "s"});
    v.field(&R::kv_start_s, "kv_start_s", {.unit = "s"});
    v.field(&R::kv_end_s, "kv_end_s", {.unit = "s"});
    v.field(&R::finish_s, "finish_s", {.unit = "s"});
    v.field(&R::chunk_times_s, "chunk_times_s", {.unit = "s"});
    v.field(&R::chunk_tokens, "chunk_tokens", {.unit = "tokens"});
    v.field(&R::completed, "completed");
  }
};

struct SimResults {
  std::string scenario_name;
  Json resolved_scenario;  // the scenario after defaults and --set overrides
  Json profiles;  // {"model": {...}, "gpu": {...}, "gpu_profile": {...}, "fabric_profile": {...}}
  uint64_t seed = 0;
  double duration_s = 0;  // first request sent → last request finished
  bool speculative = false;
  std::vector<RequestRecord> requests;
  std::optional<WorkloadConfig> workload;   // the client's settings (bench_serving's arguments)
  std::optional<PredictedFailure> failure;  // the run would have crashed: no latencies
  // The summary's "pdsim" block as the statistics observer writes it (serving_stats.hpp): a
  // report document (per-forward breakdown "forward_breakdown_us", "kv_transfer", "queueing",
  // "decode", "prefill", "tail", "memory"), read back only from summary files.
  Json extras;

  // One serializer for the worker-process boundary (run_scenario.cpp) and tests.
  template <class V>
  static void declare(V& v) {
    using R = SimResults;
    v.field(&R::scenario_name, "scenario_name");
    v.field(&R::resolved_scenario, "resolved_scenario", {.verbatim = true});
    v.field(&R::profiles, "profiles", {.verbatim = true});
    v.field(&R::seed, "seed");
    v.field(&R::duration_s, "duration_s", {.unit = "s"});
    v.field(&R::speculative, "speculative");
    v.field(&R::requests, "requests");
    v.field(&R::workload, "workload", {.nullable = true});
    v.field(&R::failure, "failure", {.nullable = true});
    v.field(&R::extras, "extras", {.verbatim = true});
  }
};

}  // namespace pdsim

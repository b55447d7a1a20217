#pragma once
// What a serving simulation produces: one record per request (timestamps of every streamed
// chunk) plus simulator extras. Summaries with bench_serving semantics are computed from these
// records by bench_metrics.hpp, never inside the simulation actors.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

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
};

struct SimResults {
  std::string scenario_name;
  Json resolved_scenario;  // the scenario after defaults and --set overrides
  Json profiles;  // {"model": {...}, "gpu": {...}, "gpu_profile": {...}, "fabric_profile": {...}}
  uint64_t seed = 0;
  double duration_s = 0;  // first request sent → last request finished
  bool speculative = false;
  std::vector<RequestRecord> requests;
  // Simulator extras, reported under the summary's "pdsim" key: per-forward breakdown
  // ("forward_breakdown_us": attention, moe_compute, dispatch, combine, draft, other, ...),
  // "kv_transfer", "queueing", "decode", "prefill", "fabric" blocks.
  Json extras;
};

}  // namespace pdsim

#pragma once
// A hand-built run for the reports tests: times are binary fractions so differences are exact.
//   r0: arrival 0,    chunks 1.0 1.125 1.375 1.75 (1 token each), output 4, input 100
//   r1: arrival 0.5,  chunk  2.5, output 1, input 200
//   r2: arrival 1.0,  chunks 1.5 2.0 2.25 carrying 1, 2, 3 tokens, output 6, input 300
//   r3: arrival 1.25, never completed (input 400, output 8): ignored by every metric
// duration 2.5 s, speculative.
#include "sim/serve/entities/results.hpp"

namespace pdsim::testing_fixture {

inline RequestRecord request(int id, double arrival, int in, int out, std::vector<double> chunks,
                             std::vector<int> tokens) {
  RequestRecord q;
  q.id = id;
  q.arrival_s = arrival;
  q.input_len = in;
  q.output_len = out;
  q.completed = !chunks.empty();
  q.finish_s = chunks.empty() ? -1 : chunks.back();
  q.chunk_times_s = std::move(chunks);
  q.chunk_tokens = std::move(tokens);
  return q;
}

inline SimResults hand_results() {
  SimResults r;
  r.scenario_name = "hand";
  r.seed = 7;
  r.duration_s = 2.5;
  r.speculative = true;
  r.requests.push_back(request(0, 0.0, 100, 4, {1.0, 1.125, 1.375, 1.75}, {1, 1, 1, 1}));
  r.requests.push_back(request(1, 0.5, 200, 1, {2.5}, {1}));
  r.requests.push_back(request(2, 1.0, 300, 6, {1.5, 2.0, 2.25}, {1, 2, 3}));
  r.requests.push_back(request(3, 1.25, 400, 8, {}, {}));
  auto& q = r.requests[2];
  q.prefill_instance = 0;
  q.decode_instance = 1;
  q.decode_rank = 3;
  q.prefill_start_s = 1.0;
  q.prefill_end_s = 1.25;
  q.kv_start_s = 1.25;
  q.kv_end_s = 1.375;
  q.decode_reserved_s = 1.125;
  r.resolved_scenario = {{"name", "hand"},
                         {"workload",
                          {{"dataset", "random"},
                           {"input_len", 120000},
                           {"output_len", 1000},
                           {"range_ratio", 1.0},
                           {"num_prompts", 4},
                           {"request_rate", 0.4},
                           {"max_concurrency", 0}}}};
  r.workload = WorkloadConfig{.dataset = "random",
                              .input_len = 120000,
                              .output_len = 1000,
                              .range_ratio = 1.0,
                              .num_prompts = 4,
                              .request_rate = 0.4,
                              .max_concurrency = 0};
  r.profiles = {{"fabric_profile",
                 {{"name", "efa-p5en"},
                  {"schema", "pdsim.fabric_profile/1"},
                  {"provenance", {{"kind", "published"}}},
                  {"alpha_us", 5}}}};
  r.extras = {{"forward_breakdown_us",
               {{"attention", 300.0},
                {"moe_compute", 500.0},
                {"dispatch", 400.0},
                {"combine", 350.0},
                {"other", 50.0}}},
              {"kv_transfer", {{"mean_s", 0.75}, {"p99_s", 1.25}}},
              {"queueing", {{"prefill_wait_mean_s", 0.125}, {"decode_wait_mean_s", 0.0625}}}};
  return r;
}

}  // namespace pdsim::testing_fixture

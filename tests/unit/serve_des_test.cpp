// Invariants of the serving simulation on the quick scenarios (each simulation runs in a forked
// process, as SimGrid allows one engine per process).
#include <gtest/gtest.h>

#include <numeric>

#include "sim/core/data_path.hpp"
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

std::string quick(const std::string& fabric) {
  return data_root() + "/scenarios/glm51-2p2d-" + fabric + "-quick.json";
}

class ServeInvariants : public ::testing::TestWithParam<std::string> {};

TEST_P(ServeInvariants, EveryRequestCompletesWithItsTokensAndCausalTimestamps) {
  Scenario s = load_scenario(quick(GetParam()));
  Deployment d = build_deployment(s);
  SimResults r = simulate_isolated(d, s.seed);
  ASSERT_EQ(r.requests.size(), static_cast<size_t>(s.workload.num_prompts));
  PrefillChunkTimer pc(d);
  for (const auto& q : r.requests) {
    ASSERT_TRUE(q.completed) << q.id;
    // Token conservation: the chunks carry exactly output_len tokens, the first chunk one.
    EXPECT_EQ(std::accumulate(q.chunk_tokens.begin(), q.chunk_tokens.end(), 0), q.output_len)
        << q.id;
    EXPECT_EQ(q.chunk_tokens.front(), 1);
    for (int t : q.chunk_tokens) {
      EXPECT_GE(t, 1);
      EXPECT_LE(t, s.decode.speculative.num_draft_tokens);
    }
    // Causality: arrival ≤ reservation ≤ prefill start < prefill end ≤ KV end ≤ first chunk.
    EXPECT_LE(q.arrival_s, q.decode_reserved_s);
    EXPECT_LE(q.decode_reserved_s, q.prefill_start_s);
    EXPECT_LT(q.prefill_start_s, q.prefill_end_s);
    EXPECT_LE(q.prefill_end_s, q.kv_end_s);
    EXPECT_LE(q.kv_end_s, q.chunk_times_s.front());
    for (size_t k = 1; k < q.chunk_times_s.size(); ++k)
      EXPECT_GT(q.chunk_times_s[k], q.chunk_times_s[k - 1]);
    EXPECT_DOUBLE_EQ(q.finish_s, q.chunk_times_s.back());
    // TTFT ≥ the prefill compute lower bound. Stage 0 must process every chunk of the prompt
    // (one per 16384 tokens, each at least its cost with an empty prefix, since a longer prefix
    // only adds attention work) before the last chunk can pass through the later stages, which
    // pipeline behind it (at least one token's worth of work each: its size is not known here).
    double bound_us = 0;
    for (int done = 0; done < q.input_len; done += s.prefill.chunked_prefill_size) {
      const int n = std::min(s.prefill.chunked_prefill_size, q.input_len - done);
      bound_us += pc.time(0, {PrefillSegment{0, n}}).compute_us;
    }
    for (int st = 1; st < s.prefill.pp; ++st)
      bound_us += pc.time(st, {PrefillSegment{0, 1}}).compute_us;
    EXPECT_GE(q.ttft_s() * 1e6, bound_us) << q.id;
  }
  // bench_serving's concurrency is Σ e2e / duration.
  Json sum = bench_summary(r);
  double e2e = 0;
  for (const auto& q : r.requests) e2e += q.e2e_s();
  EXPECT_NEAR(sum["concurrency"].get<double>(), e2e / r.duration_s, 1e-9);
  EXPECT_EQ(sum["completed"].get<int>(), s.workload.num_prompts);
  EXPECT_GT(r.extras["forward_breakdown_us"]["dispatch"].get<double>(), 0.0);
}

TEST_P(ServeInvariants, SameSeedIsByteIdenticalAndSeedMatters) {
  Scenario s = load_scenario(quick(GetParam()));
  Deployment d = build_deployment(s);
  const std::string a = results_to_json(simulate_isolated(d, 7)).dump();
  const std::string b = results_to_json(simulate_isolated(d, 7)).dump();
  const std::string c = results_to_json(simulate_isolated(d, 8)).dump();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

INSTANTIATE_TEST_SUITE_P(Fabrics, ServeInvariants, ::testing::Values("efa", "roce"));

TEST(ServeMechanisms, MaxConcurrencyBoundsRequestsInFlight) {
  Scenario s = load_scenario(quick("efa"), {"workload.max_concurrency=2",
                                            "workload.request_rate=inf", "workload.num_prompts=8"});
  SimResults r = simulate_isolated(build_deployment(s), s.seed);
  // At any arrival instant at most 2 requests (including the new one) are unfinished.
  for (const auto& q : r.requests) {
    int live = 0;
    for (const auto& o : r.requests) live += o.arrival_s <= q.arrival_s && o.finish_s > q.arrival_s;
    EXPECT_LE(live, 2) << q.id;
  }
}

// pdsim.offered_load: the client keeps to the offered gaps unless max_concurrency holds it back.
TEST(ServeMechanisms, OfferedLoadSaysWhenMaxConcurrencyHeldTheClientBack) {
  auto load = [](const std::vector<std::string>& sets) {
    return testing::quick_reference_summary("efa", sets).at("pdsim").at("offered_load");
  };
  const Json open = load({"workload.request_rate=4"});
  EXPECT_EQ(open.at("held_back_requests"), 0);
  EXPECT_EQ(open.at("admission_wait_s"), 0.0);
  EXPECT_GT(open.at("scheduled_span_s").get<double>(), 0.0);
  const Json capped = load({"workload.request_rate=4", "workload.max_concurrency=1"});
  EXPECT_GT(capped.at("held_back_requests").get<int>(), 0);
  // One request in flight at a time: every request after the first waits for the one before to
  // finish, so the client's span is at least the sum of all but the last request's latency.
  EXPECT_GT(capped.at("admission_wait_s").get<double>(), 0.0);
  EXPECT_EQ(capped.at("scheduled_span_s"), open.at("scheduled_span_s"));  // same seeded gaps
}

TEST(ServeMechanisms, WithoutSpeculationEveryChunkIsOneToken) {
  Scenario s =
      load_scenario(quick("roce"), {"decode.speculative.algorithm=none", "workload.num_prompts=6"});
  SimResults r = simulate_isolated(build_deployment(s), s.seed);
  for (const auto& q : r.requests)
    for (int t : q.chunk_tokens) EXPECT_EQ(t, 1);
  EXPECT_TRUE(bench_summary(r)["accept_length"].is_null());
}

}  // namespace
}  // namespace pdsim

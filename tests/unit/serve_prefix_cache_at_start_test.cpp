// bench_serving's warmup, a sweep's earlier runs and the prefill's radix cache
// (sim/serve/entities/prefix_cache_at_start.hpp): the rule by hand, and what it does to the
// requests of a serving run.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/prefix_cache_at_start.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

std::string dsr1_tp() {
  return data_root() + "/scenarios/dsr1/dsr1-2p2d-p5en-tp.json";
}

// The prefill's DP-attention groups as SGLang builds them: dp with DP attention, else 1.
int attn_dp(const Scenario& s) {
  return s.prefill.dp_attention ? s.prefill.dp : 1;
}

Scenario one_prefill_instance(int page) {
  Scenario s;
  s.prefill.instances = 1;
  s.prefill.cp = 1;
  s.prefill.dp_attention = false;
  s.prefill.kv_page_size = page;
  return s;
}

// The first request's cached tokens in a run of one prompt of `len` tokens (a pool that holds it).
int warmup_prefix(const Scenario& s, int dp, int len) {
  return prefix_cache_at_start(s, dp, 1e9, {len}).cached_tokens.at(0);
}

TEST(WarmupPrefix, CachesAllButTheLastTokenInWholePages) {
  // (L - 1) rounded down to whole pages: SGLang matches at most L - 1 tokens, page-aligned.
  EXPECT_EQ(warmup_prefix(one_prefill_instance(64), 1, 65536), 65472);
  EXPECT_EQ(warmup_prefix(one_prefill_instance(64), 1, 256), 192);
  EXPECT_EQ(warmup_prefix(one_prefill_instance(64), 1, 65), 64);
  EXPECT_EQ(warmup_prefix(one_prefill_instance(1), 1, 1024), 1023);
  EXPECT_EQ(warmup_prefix(one_prefill_instance(64), 1, 64), 0);  // 63 < one page
  EXPECT_EQ(warmup_prefix(one_prefill_instance(1), 1, 1), 0);
}

TEST(WarmupPrefix, NoHitWithoutWarmupOrCacheOrWhereItsPlacementIsTheRoutersChoice) {
  auto off = [](auto change) {
    Scenario s = one_prefill_instance(64);
    change(s);
    const PrefixCacheAtStart w = prefix_cache_at_start(s, attn_dp(s), 1e9, {4096});
    EXPECT_EQ(w.cached_tokens.at(0), 0) << w.reason;
    return w.reason;
  };
  EXPECT_NE(off([](Scenario& s) { s.workload.warmup_requests = 0; }).find("warmup_requests"),
            std::string::npos);
  EXPECT_NE(off([](Scenario& s) { s.workload.flush_cache = true; }).find("flush"),
            std::string::npos);
  EXPECT_NE(off([](Scenario& s) { s.prefill.disable_radix_cache = true; }).find("radix"),
            std::string::npos);
  EXPECT_NE(off([](Scenario& s) { s.prefill.instances = 2; }).find("in turn"), std::string::npos);
  EXPECT_NE(off([](Scenario& s) {
              s.prefill.instances = 2;
              s.workload.warmup_requests = 2;
              s.elastic.prefill_joins_s = {60.0};
            }).find("join"),
            std::string::npos);
  EXPECT_NE(off([](Scenario& s) {
              s.prefill.dp_attention = true;
              s.prefill.dp = 16;
            }).find("DP"),
            std::string::npos);
  EXPECT_NE(off([](Scenario& s) { s.prefill.cp = 8; }).find("context parallel"), std::string::npos);
  // Several warmups put the same prompt in the cache once; with as many warmups as prefill
  // instances taken in turn, every instance holds it.
  Scenario s = one_prefill_instance(64);
  s.workload.warmup_requests = 5;
  EXPECT_EQ(warmup_prefix(s, attn_dp(s), 4096), 4032);
  s.prefill.instances = 3;
  s.workload.warmup_requests = 3;
  EXPECT_EQ(warmup_prefix(s, attn_dp(s), 4096), 4032);
  s.workload.warmup_requests = 2;
  EXPECT_EQ(warmup_prefix(s, attn_dp(s), 4096), 0);
}

// A sweep's earlier runs with the same seed: prompt i of a run is prompt i of every earlier run,
// cut to that run's length. Page 64; the warmup repeats prompt 0.
TEST(PrefixCacheAtStart, EarlierRunsLeaveTheirPromptsCached) {
  Scenario s = one_prefill_instance(64);
  // 4 prompts of 1024 after a run of 2 prompts of 1024 and one of 3 prompts of 256.
  s.workload.prior_input_lens = {1024, 256};
  s.workload.prior_num_prompts = {2, 3};
  const PrefixCacheAtStart c = prefix_cache_at_start(s, 1, 1e9, {1024, 1024, 1024, 1024});
  // 0, 1: the whole prompt seen before -> 1023 rounded down to pages = 960; 2: the 256-token run's
  // prompt 2 is its first 256 tokens -> 256 (256 < 1023, a whole number of pages); 3: never sent.
  EXPECT_EQ(c.cached_tokens, (std::vector<int>{960, 960, 256, 0}));
  EXPECT_EQ(c.requests_hit(), 3);
  EXPECT_DOUBLE_EQ(c.tokens(), 2176.0);
  // A longer earlier run covers a shorter prompt: at most L - 1 tokens, whole pages.
  s.workload.prior_input_lens = {4096};
  s.workload.prior_num_prompts = {1};
  EXPECT_EQ(prefix_cache_at_start(s, 1, 1e9, {1024, 1024}).cached_tokens,
            (std::vector<int>{960, 0}));
  // No warmup: prompt 0 of this run is still found, from the earlier run.
  s.workload.warmup_requests = 0;
  EXPECT_EQ(prefix_cache_at_start(s, 1, 1e9, {1024}).cached_tokens.at(0), 960);
}

TEST(PrefixCacheAtStart, TheOldestPromptsAreEvictedWhenThePoolIsFull) {
  Scenario s = one_prefill_instance(1);
  s.workload.warmup_requests = 0;
  s.workload.prior_input_lens = {100};
  s.workload.prior_num_prompts = {3};
  // A pool of 300 tokens holds the earlier run's 3 prompts: both of this run's find 99 tokens.
  EXPECT_EQ(prefix_cache_at_start(s, 1, 300, {100, 100}).cached_tokens, (std::vector<int>{99, 99}));
  // 5 earlier prompts in 300 tokens keep the last 3 (2, 3, 4); this run asks for 0 first, and
  // each miss inserts a prompt that evicts the next one to be asked: a scan longer than the pool
  // finds nothing (LRU).
  s.workload.prior_num_prompts = {5};
  EXPECT_EQ(prefix_cache_at_start(s, 1, 300, {100, 100, 100, 100, 100}).requests_hit(), 0);
  // A pool that holds all five: every prompt is found.
  EXPECT_EQ(prefix_cache_at_start(s, 1, 500, {100, 100, 100, 100, 100}).requests_hit(), 5);
}

TEST(PrefixCacheAtStart, EarlierRunsCountOnlyOnOnePrefillInstance) {
  Scenario s = one_prefill_instance(64);
  s.workload.prior_input_lens = {1024};
  s.workload.prior_num_prompts = {8};
  s.prefill.instances = 2;
  s.workload.warmup_requests = 2;
  const PrefixCacheAtStart c = prefix_cache_at_start(s, 1, 1e9, {1024, 1024});
  EXPECT_EQ(c.cached_tokens, (std::vector<int>{960, 0})) << c.reason;
  EXPECT_NE(c.reason.find("earlier runs are not placed"), std::string::npos);
}

TEST(PrefixCacheAtStart, EarlierRunsNeedOneCountPerLength) {
  const std::string sc = dsr1_tp();
  try {
    load_scenario(sc, {"workload.prior_input_lens=[1024,256]", "workload.prior_num_prompts=[8]"});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("workload.prior_num_prompts"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("as many as prior_input_lens (2), got 1"),
              std::string::npos)
        << e.what();
  }
}

// Two 64K prompts one after the other (the published TP point at concurrency 1): the first
// prefills only its last page, at the cost of that page over a 65472-token prefix; the second
// prefills four chunks of 16384. The KV of both travels whole.
TEST(WarmupPrefix, TheFirstRequestPrefillsOnlyItsUncachedTail) {
  const std::vector<std::string> sets = {"workload.input_len=65536", "workload.output_len=1",
                                         "workload.range_ratio=1", "workload.max_concurrency=1",
                                         "workload.num_prompts=2"};
  Scenario s = load_scenario(dsr1_tp(), sets);
  ASSERT_EQ(s.prefill.pp, 1);
  ASSERT_EQ(s.prefill.kv_page_size, 64);
  Deployment d = build_deployment(s);
  SimResults r = simulate_isolated(d, s.seed);
  ASSERT_EQ(r.requests.size(), 2u);
  EXPECT_EQ(r.extras["prefix_cache"]["first_request_cached_tokens"].get<int>(), 65472);
  EXPECT_EQ(r.extras["prefix_cache"]["requests_hit"].get<int>(), 1);

  PrefillChunkTimer pc(d);
  const double tail_us = pc.time(0, {PrefillSegment{65472, 64}}).total_us();
  double whole_us = 0;
  for (int done = 0; done < 65536; done += 16384)
    whole_us += pc.time(0, {PrefillSegment{done, 16384}}).total_us();
  const auto& first = r.requests[0];
  const auto& second = r.requests[1];
  EXPECT_NEAR((first.prefill_end_s - first.prefill_start_s) * 1e6, tail_us, 1e-3);
  EXPECT_NEAR((second.prefill_end_s - second.prefill_start_s) * 1e6, whole_us, 1e-3);
  // One forward of 64 tokens against four of 16384: the tail still pays a whole forward's fixed
  // costs (its 124 cross-node collectives' latency) and attention over the 65K prefix, so it is
  // far more than 1/1024 of the work, yet well under a twenty-fifth.
  EXPECT_LT(tail_us * 25, whole_us);

  // With the cache off both requests prefill everything.
  std::vector<std::string> off = sets;
  off.push_back("prefill.disable_radix_cache=true");
  Scenario s2 = load_scenario(dsr1_tp(), off);
  Deployment d2 = build_deployment(s2);
  SimResults r2 = simulate_isolated(d2, s2.seed);
  EXPECT_EQ(r2.extras["prefix_cache"]["requests_hit"].get<int>(), 0);
  const auto& q0 = r2.requests[0];
  EXPECT_NEAR((q0.prefill_end_s - q0.prefill_start_s) * 1e6, whole_us, 1e-3);
  // Same KV bytes either way: the transfer takes as long for the cached request.
  EXPECT_NEAR(first.kv_end_s - first.prefill_end_s, q0.kv_end_s - q0.prefill_end_s, 1e-9);
}

}  // namespace
}  // namespace pdsim

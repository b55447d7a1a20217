#pragma once
// What the prefill's radix cache already holds of each measured prompt when the run starts:
// bench_serving's warmup and the earlier runs of a sweep against the same server.
//
// bench_serving (python/sglang/bench_serving.py) draws the random dataset from ShareGPT: it
// shuffles the conversations with --seed (default 1) and repeats or cuts the i-th one's first
// turn to input_lens[i] (`sample_random_requests`, random_sample=True). So every run with the same
// seed sends the same prompts in the same order, and prompt i of a shorter run is a prefix of
// prompt i of a longer one. Before measuring it sends `--warmup-requests` requests (default 1)
// with the prompt of input_requests[0], and flushes the server's cache only with --flush-cache
// (or SGLANG_IS_IN_CI) (`benchmark`). A sweep that runs point after point against one server
// (`workload.prior_input_lens` / `prior_num_prompts`, in order) therefore finds the earlier
// points' prompts in the prefill's radix cache unless --disable-radix-cache. The source of the
// DeepSeek-R1 2P2D sweep measured the effect on a rerun of one point: 12x the input throughput
// (measurements/dsr1-2p2d-p5en-20260624 README, section 4, caveat 8).
//
// How much a request finds: a new request matches at most input_len - 1 tokens
// (`Req.init_next_round_input`: one token is always computed), in whole pages (the paged radix
// cache truncates the key to page_size). Its KV still travels whole to the decode side.
// Eviction is LRU at prompt granularity within the prefill's KV pool (SGLang evicts leaves, least
// recently used first): the prompts used longest ago go first; the KV of requests in flight is
// not counted against the pool (an upper bound on what stays cached). Prompts are taken at their
// length exactly in earlier runs (--random-range-ratio 1), each earlier run with this run's
// --warmup-requests, and in request order in this one; the
// text round trip (bench_serving decodes the token ids, the server encodes the text again) may
// change a few tokens at a shorter prompt's end, which is not modelled.
//
// Not applied where the placement is not certain: prefill instances that join during the run, DP
// attention on the prefill (each DP group has its own cache, chosen by a random bootstrap room),
// NSA prefill context parallelism (its reuse of a cached prefix was not checked in SGLang's
// source); with several prefill instances only the warmup counts (the router takes instances in
// turn, warmups included, so with N instances the first request hits only with N or more
// warmups), earlier runs do not. `reason` says which rule decided.
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"

namespace pdsim {

struct PrefixCacheAtStart {
  std::vector<int> cached_tokens;  // per measured request, in arrival order; 0 = no hit
  std::string reason;              // which rule decided (summary.json: pdsim.prefix_cache)
  int requests_hit() const;
  double tokens() const;
};

// `prefill_attn_dp`: the prefill's DP-attention groups as SGLang builds them (the deployment's
// prefill layout, which also places each request's chunks); `capacity_tokens`: the prefill
// instance's KV pool in tokens; `input_lens`: the measured requests' prompt lengths in order.
PrefixCacheAtStart prefix_cache_at_start(const Scenario& s, int prefill_attn_dp,
                                         double capacity_tokens,
                                         const std::vector<int>& input_lens);

}  // namespace pdsim

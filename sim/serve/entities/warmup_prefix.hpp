#pragma once
// bench_serving's warmup meets SGLang's radix cache: the first measured request finds its prompt
// already prefilled.
//
// bench_serving (python/sglang/bench_serving.py, `benchmark`) sends `--warmup-requests` requests
// (default 1) before the measured run, each with the prompt of input_requests[0], the first
// measured request, and flushes the server's cache only with `--flush-cache` (or
// SGLANG_IS_IN_CI). The prefill keeps a finished prompt in its radix cache unless
// `--disable-radix-cache`; a new request matches at most input_len - 1 tokens
// (`Req.init_next_round_input`: one token is always computed) and, with pages, a whole number of
// pages (the paged radix cache truncates the key to page_size). So the first measured request
// prefills only its tail, and its KV still travels whole to the decode side. Its weight is one
// request of num_prompts: a run of 2 prompts at concurrency 1 does half its prefill work.
//
// Where the warmup's cache entry lands: the router takes prefill instances in turn (both of
// pdsim's router policies), warmups included, so with N instances the first measured request
// reaches an instance a warmup reached only if warmup_requests >= N. Not applied where the
// placement is not certain: prefill instances that join during the run, DP attention on the
// prefill (each DP group has its own cache, chosen by a random bootstrap room), and NSA prefill
// context parallelism (its reuse of a cached prefix was not checked in SGLang's source).
// `reason` says which rule decided.
#include <string>

#include "sim/scenario/scenario.hpp"

namespace pdsim {

struct WarmupPrefix {
  int cached_tokens = 0;  // of the first measured request's prompt; 0 = no hit
  std::string reason;     // why it applies or not (summary.json: pdsim.warmup_prefix)
};

// `prefill_attn_dp`: the prefill's DP-attention groups as SGLang builds them (the deployment's
// prefill layout, which also places each request's chunks).
WarmupPrefix warmup_prefix(const Scenario& s, int prefill_attn_dp, int first_input_len);

}  // namespace pdsim

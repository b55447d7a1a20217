#include "sim/serve/entities/prefix_cache_at_start.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

namespace pdsim {
namespace {

// The radix cache at prompt granularity: prompt index -> cached length, evicted least recently
// used first once the pool is full.
class PromptLru {
 public:
  explicit PromptLru(double capacity_tokens) : capacity_(capacity_tokens) {}
  int cached(int prompt) const {
    const auto it = entries_.find(prompt);
    return it == entries_.end() ? 0 : it->second.tokens;
  }
  // The prompt was prefilled at `tokens`: its entry grows to that length and is the most recent.
  void use(int prompt, int tokens) {
    auto [it, fresh] = entries_.try_emplace(prompt, Entry{0, 0});
    if (!fresh) order_.erase(it->second.stamp);
    if (tokens > it->second.tokens) {
      total_ += tokens - it->second.tokens;
      it->second.tokens = tokens;
    }
    it->second.stamp = ++clock_;
    order_.emplace(clock_, prompt);
    while (total_ > capacity_ && !order_.empty()) {
      const auto oldest = order_.begin();
      const auto e = entries_.find(oldest->second);
      total_ -= e->second.tokens;
      entries_.erase(e);
      order_.erase(oldest);
    }
  }

 private:
  struct Entry {
    int tokens;
    long stamp;
  };
  double capacity_, total_ = 0;
  long clock_ = 0;
  std::unordered_map<int, Entry> entries_;
  std::map<long, int> order_;  // stamp -> prompt, oldest first
};

PrefixCacheAtStart none(size_t n, std::string reason) {
  return {std::vector<int>(n, 0), std::move(reason)};
}

}  // namespace

int PrefixCacheAtStart::requests_hit() const {
  return static_cast<int>(
      std::count_if(cached_tokens.begin(), cached_tokens.end(), [](int c) { return c > 0; }));
}

double PrefixCacheAtStart::tokens() const {
  return std::accumulate(cached_tokens.begin(), cached_tokens.end(), 0.0);
}

PrefixCacheAtStart prefix_cache_at_start(const Scenario& s, int prefill_attn_dp,
                                         double capacity_tokens,
                                         const std::vector<int>& input_lens) {
  const auto& w = s.workload;
  const auto& p = s.prefill;
  const size_t n = input_lens.size();
  const bool earlier = !w.prior_input_lens.empty();
  if (n == 0) return none(n, "no request");
  if (w.warmup_requests < 1 && !earlier)
    return none(n, "no warmup request (workload.warmup_requests 0) and no earlier run");
  if (w.flush_cache) return none(n, "the cache is flushed after the warmup (workload.flush_cache)");
  if (p.disable_radix_cache) return none(n, "no prefix cache (prefill.disable_radix_cache)");
  if (p.instances > 1 &&
      (!s.elastic.prefill_joins_s.empty() || s.elastic.autoscale_role == "prefill"))
    return none(n, "not applied: prefill instances join during the run");
  if (prefill_attn_dp > 1)
    return none(
        n, "not applied: under DP attention each request's DP group is a random bootstrap room");
  if (p.cp > 1) return none(n, "not applied: NSA prefill context parallelism (prefill.cp > 1)");
  const int page = p.kv_page_size;
  // At most input_len - 1 tokens, in whole pages (never negative: input_len >= 1).
  auto hit = [page](int cached, int len) { return std::min(cached, len - 1) / page * page; };
  PrefixCacheAtStart out = none(n, "");
  if (p.instances > 1) {
    // Both router policies take prefill instances in turn, warmups included: W warmups went to
    // instances 0..W-1 (mod N) and the first measured request goes to instance W mod N.
    if (w.warmup_requests < p.instances)
      return none(n, w.warmup_requests < 1
                         ? "no warmup request (workload.warmup_requests 0)"
                         : "no hit: the router takes prefill instances in turn, so the first "
                           "request goes to an instance no warmup reached");
    out.cached_tokens[0] = hit(input_lens[0], input_lens[0]);
    out.reason =
        "bench_serving's warmup prefilled the first request's prompt on every prefill "
        "instance (earlier runs are not placed across several instances)";
    return out;
  }
  PromptLru lru(capacity_tokens);
  const bool warm = w.warmup_requests > 0;
  // Earlier runs with the same seed: the same prompts, each at that run's length.
  for (size_t r = 0; r < w.prior_input_lens.size(); ++r) {
    if (warm) lru.use(0, w.prior_input_lens[r]);
    for (int i = 0; i < w.prior_num_prompts[r]; ++i) lru.use(i, w.prior_input_lens[r]);
  }
  if (warm) lru.use(0, input_lens[0]);
  for (size_t i = 0; i < n; ++i) {
    const int id = static_cast<int>(i);
    out.cached_tokens[i] = hit(lru.cached(id), input_lens[i]);
    lru.use(id, input_lens[i]);
  }
  out.reason = earlier ? "bench_serving's warmup and the earlier runs' prompts (the same seed) "
                         "left prompts in the radix cache (all but the last token, whole pages; "
                         "LRU within the prefill's KV pool)"
                       : "bench_serving's warmup prefilled the first request's prompt; the radix "
                         "cache holds it (all but the last token, whole pages)";
  return out;
}

}  // namespace pdsim

#include "sim/serve/entities/warmup_prefix.hpp"

namespace pdsim {

WarmupPrefix warmup_prefix(const Scenario& s, int prefill_attn_dp, int first_input_len) {
  const auto& w = s.workload;
  const auto& p = s.prefill;
  if (w.warmup_requests < 1) return {0, "no warmup request (workload.warmup_requests 0)"};
  if (w.flush_cache) return {0, "the cache is flushed after the warmup (workload.flush_cache)"};
  if (p.disable_radix_cache) return {0, "no prefix cache (prefill.disable_radix_cache)"};
  if (p.instances > 1) {
    if (!s.elastic.prefill_joins_s.empty() || s.elastic.autoscale_role == "prefill")
      return {0, "not applied: prefill instances join during the run"};
    // Both router policies take prefill instances in turn, warmups included: W warmups went to
    // instances 0..W-1 (mod N) and the first measured request goes to instance W mod N.
    if (w.warmup_requests < p.instances)
      return {0,
              "no hit: the router takes prefill instances in turn, so the first request goes "
              "to an instance no warmup reached"};
  }
  if (prefill_attn_dp > 1)
    return {0, "not applied: under DP attention the warmup's DP group is a random bootstrap room"};
  if (p.cp > 1) return {0, "not applied: NSA prefill context parallelism (prefill.cp > 1)"};
  const int page = p.kv_page_size;
  const int cached = (first_input_len - 1) / page * page;
  if (cached <= 0) return {0, "the prompt is shorter than one page plus one token"};
  return {cached,
          "bench_serving's warmup prefilled the first request's prompt; the radix cache "
          "holds it (all but the last token, whole pages)"};
}

}  // namespace pdsim

#include "sim/serve/actors/serving_stats.hpp"

#include <algorithm>

#include "sim/core/stats.hpp"
#include "sim/serve/cost/kv_engine.hpp"

namespace pdsim {

void ServingStats::prefill_chunk(const ChunkCost& c) {
  chunk_sum_.compute_us += c.compute_us;
  chunk_sum_.cp_exchange_us += c.cp_exchange_us;
  chunk_sum_.collective_us += c.collective_us;
  chunk_sum_.a2a_us += c.a2a_us;
  chunk_sum_.host_us += c.host_us;
  ++chunks_;
}

void ServingStats::kv_part(double bytes, double seconds) {
  kv_bytes_.push_back(bytes);
  kv_part_s_.push_back(seconds);
}

void ServingStats::kv_complete(double seconds) {
  kv_times_s_.push_back(seconds);
}

void ServingStats::decode_iteration(const IterationRecord& r, bool cuda_graph) {
  terms_sum_.add(r.terms);
  ++iterations_;
  batch_sum_ += r.requests;
  if (cuda_graph) ++graph_iterations_;
  iter_log_.push_back(r);
}

namespace {

// How far the client kept to the offered request rate: the gaps it was asked to wait
// (scheduled_span_s) and the time max_concurrency held requests back on top of them (the client
// sleeps each gap after the previous request was sent, so a request's wait is its send time minus
// the previous send minus its gap).
Json offered_load(const std::vector<Request>& requests) {
  double span = 0, wait = 0, prev = 0;
  int held = 0;
  for (const auto& q : requests) {
    span += q.spec.gap_s;
    const double w = q.rec.arrival_s - prev - q.spec.gap_s;
    // Sub-nanosecond differences are the clock's rounding, not a wait.
    if (w > 1e-9) {
      wait += w;
      ++held;
    }
    prev = q.rec.arrival_s;
  }
  return Json{{"scheduled_span_s", span}, {"admission_wait_s", wait}, {"held_back_requests", held}};
}

}  // namespace

Json ServingStats::extras(const Deployment& d, const std::vector<Request>& requests,
                          const DecodeIterationTimer& decode,
                          const PrefillChunkTimer& prefill) const {
  Json breakdown = Json::object();
  const double n = std::max<double>(1.0, static_cast<double>(iterations_));
  for (const auto& [k, v] : terms_sum_.named()) breakdown[k] = v / n;
  auto mean_gap = [&](auto from, auto to) {
    std::vector<double> v;
    for (const auto& q : requests) v.push_back(to(q.rec) - from(q.rec));
    return mean_of(v);
  };
  const Distribution kv = describe(kv_times_s_);
  const double chunks = std::max<double>(1.0, static_cast<double>(chunks_));
  double kv_bytes_total = 0;
  for (double b : kv_bytes_) kv_bytes_total += b;
  double kv_part_total_s = 0;
  for (double t : kv_part_s_) kv_part_total_s += t;
  return Json{
      {"forward_breakdown_us", breakdown},
      {"decode",
       {{"iterations", iterations_},
        {"mean_batch_per_rank", batch_sum_ / (n * d.decode_ranks)},
        {"cuda_graph_fraction", static_cast<double>(graph_iterations_) / n},
        {"max_requests_per_rank", d.max_requests_per_rank},
        {"cost_model", decode.stats()}}},
      {"prefill",
       {{"stage_chunks", chunks_},
        {"ops_outside_gpu_profile_range", prefill.out_of_range_ops().names()},
        {"collectives", prefill.collective_stats()},
        {"mean_stage_chunk_us",
         {{"compute", chunk_sum_.compute_us / chunks},
          {"cp_exchange", chunk_sum_.cp_exchange_us / chunks},
          {"collective", chunk_sum_.collective_us / chunks},
          {"a2a", chunk_sum_.a2a_us / chunks},
          {"host", chunk_sum_.host_us / chunks}}}}},
      // A request's KV leaves in one part per PP stage; mean_s runs from the first part's start
      // to the last part's end (so it includes the pipeline lag between stages).
      {"kv_transfer",
       {{"mean_s", kv.mean},
        {"p99_s", kv.p99},
        {"max_s", kv.max},
        {"block_bytes", d.kv_block_bytes},
        {"protocol", d.scenario.prefill.kv_protocol},
        {"tcp_transport", kv_tcp_summary(d)},
        {"rate_cap_GBps", kv_engine(d).rate_Bps / 1e9},
        {"part_mean_s",
         kv_part_total_s / std::max<double>(1.0, static_cast<double>(kv_part_s_.size()))},
        {"part_achieved_GBps", kv_part_total_s > 0 ? kv_bytes_total / kv_part_total_s / 1e9 : 0.0},
        {"kv_bytes_per_token", d.kv_bytes_per_token}}},
      {"offered_load", offered_load(requests)},
      {"queueing",
       {{"decode_wait_mean_s", mean_gap([](auto& r) { return r.arrival_s; },
                                        [](auto& r) { return r.decode_reserved_s; })},
        {"prefill_wait_mean_s", mean_gap([](auto& r) { return r.decode_reserved_s; },
                                         [](auto& r) { return r.prefill_start_s; })},
        {"prefill_mean_s", mean_gap([](auto& r) { return r.prefill_start_s; },
                                    [](auto& r) { return r.prefill_end_s; })},
        {"admission_wait_mean_s", mean_gap([](auto& r) { return r.kv_end_s; },
                                           [](auto& r) { return r.chunk_times_s.front(); })}}},
      {"tail", tail_summary(iter_log_)},
      {"packet_fidelity", decode.packet_stats()},
      {"memory",
       {{"prefill", d.prefill_memory.breakdown},
        {"decode", d.decode_memory.breakdown},
        {"decode_kv_capacity_tokens_per_rank", d.decode_memory.kv_capacity_tokens}}}};
}

}  // namespace pdsim

#pragma once
// The serving simulation's statistics observer: the actors report prefill chunks, KV transfer
// parts, completed KV transfers and decode iterations to it, and at the end it builds the
// results' simulator extras (the summary's "pdsim" block): mean forward breakdown, decode and
// prefill counters, KV-transfer and queueing figures, the ITL-tail log, memory plans.
#include <deque>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/entities/request.hpp"
#include "sim/serve/mechanisms/tail_log.hpp"

namespace pdsim {

class ServingStats {
 public:
  void prefill_chunk(const ChunkCost& c);
  void kv_part(double bytes, double seconds);
  void kv_complete(double seconds);  // a request's first part's start → last part's end
  void decode_iteration(const IterationRecord& r, bool cuda_graph);

  Json extras(const Deployment& d, const std::vector<Request>& requests,
              const DecodeIterationTimer& decode, const PrefillChunkTimer& prefill) const;

 private:
  ForwardTerms terms_sum_;
  long iterations_ = 0, graph_iterations_ = 0;
  double batch_sum_ = 0;  // Σ over iterations of the requests they served
  long chunks_ = 0;
  ChunkCost chunk_sum_;
  std::vector<double> kv_times_s_, kv_bytes_, kv_part_s_;  // per request; per PP-stage part
  std::deque<IterationRecord> iter_log_;  // ~10^5 records grow without reallocation copies
};

}  // namespace pdsim

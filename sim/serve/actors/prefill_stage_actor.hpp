#pragma once
// One PP stage of a prefill instance. Stage 0 forms chunks FCFS from the instance's queue up to
// `chunked_prefill_size` tokens (a request may span chunks, a chunk may hold several requests);
// every later stage receives the chunk's BF16 activations from the stage before as a SimGrid
// flow, so the pipeline fills; at most one activation send is in flight per stage. A chunk takes
// the prefill chunk timer's time. When a stage finishes a request's last chunk it starts the KV
// transfer of its layers (kv_transfer_actor.hpp).
#include <vector>

#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/actors/serving_stats.hpp"
#include "sim/serve/actors/serving_world.hpp"

namespace pdsim {

// The message between PP stages: one chunk, or the end of the stream.
struct ChunkPiece {
  int id;
  PrefillSegment seg;
  bool last;     // the request's final chunk
  int rank = 0;  // the DP-attention rank that prefills it (0 without DP attention)
};
struct Chunk {
  std::vector<ChunkPiece> pieces;
  bool end = false;  // sentinel: no more chunks
};

class PrefillStageActor {
 public:
  PrefillStageActor(ServingWorld& w, PrefillChunkTimer& timer, ServingStats& stats, int instance,
                    int stage)
      : w_(w), timer_(timer), stats_(stats), pi_(instance), stage_(stage) {}
  void operator()();

 private:
  Chunk form_chunk(PrefillInstance& p);
  bool more_to_come(const PrefillInstance& p) const {
    return !(w_.all_routed && p.taken == p.routed);
  }

  ServingWorld& w_;
  PrefillChunkTimer& timer_;
  ServingStats& stats_;
  int pi_, stage_;
};

}  // namespace pdsim

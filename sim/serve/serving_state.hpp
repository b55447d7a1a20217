#pragma once
// The serving simulation's queues and per-rank state (sim/serve/simulation.cpp): prefill chunks
// passed between PP stages, each decode rank's admission state, and each instance's queues with
// the condition variable its actor waits on.
#include <deque>
#include <simgrid/s4u.hpp>
#include <vector>

#include "models/compute_model.hpp"
#include "sim/serve/decode_cost.hpp"

namespace pdsim::serving {

struct ChunkPiece {
  int id;
  PrefillSegment seg;
  bool last;  // the request's final chunk
};
struct Chunk {
  std::vector<ChunkPiece> pieces;
  bool end = false;  // sentinel: no more chunks
};

struct DecodeRank {
  double kv_free_tokens = 0;
  int slots_free = 0;
  std::deque<int> waiting;  // requests waiting for a reservation, FIFO
  std::vector<int> running;
};

struct DecodeInstance {
  std::vector<DecodeRank> ranks;
  std::vector<RankState> states;  // per rank: contexts of `running`, in the same order
  std::vector<int> arrived;       // KV complete, not yet admitted
  simgrid::s4u::ConditionVariablePtr cv = simgrid::s4u::ConditionVariable::create();
  int expected = 0, finished = 0;
};

struct PrefillInstance {
  std::deque<int> queue;
  simgrid::s4u::ConditionVariablePtr cv = simgrid::s4u::ConditionVariable::create();
  int expected = 0, taken = 0;
};

}  // namespace pdsim::serving

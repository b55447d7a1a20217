#pragma once
// The serving simulation's shared state: the requests, each instance's queues and per-rank
// admission state, the SimGrid platform and the flows in flight. Actors (client_actor.hpp,
// prefill_stage_actor.hpp, kv_transfer_actor.hpp, decode_actor.hpp) read and change it; the
// SimGrid engine runs one actor at a time and switches only at simcalls, so it needs no lock.
// The mutex exists only because a condition-variable wait needs a held one: an actor takes it
// just before it waits and re-checks its predicate under it.
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/serve/actors/flow_tracker.hpp"
#include "sim/serve/actors/platform.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/rank_state.hpp"
#include "sim/serve/entities/request.hpp"

namespace pdsim {

struct DecodeRank {
  double kv_free_tokens = 0;
  int slots_free = 0;
  std::deque<int> waiting;  // requests waiting for a KV reservation, FIFO
  std::vector<int> running;
};

struct DecodeInstance {
  std::vector<DecodeRank> ranks;
  std::vector<RankState> states;  // per rank: contexts of `running`, in the same order
  std::vector<int> arrived;       // KV complete, not yet admitted
  simgrid::s4u::ConditionVariablePtr cv = simgrid::s4u::ConditionVariable::create();
  int routed = 0, finished = 0;
};

struct PrefillInstance {
  std::deque<int> queue;  // reserved on their decode rank, not yet fully chunked
  simgrid::s4u::ConditionVariablePtr cv = simgrid::s4u::ConditionVariable::create();
  int routed = 0, taken = 0;
};

struct ServingWorld {
  explicit ServingWorld(const Deployment& dep) : d(dep) {}

  const Deployment& d;
  ServePlatform plat;
  std::vector<Request> requests;  // indexed by id
  std::vector<std::unique_ptr<PrefillInstance>> prefill;
  std::vector<std::unique_ptr<DecodeInstance>> decode;
  FlowTracker flows;
  simgrid::s4u::MutexPtr mu;
  simgrid::s4u::ConditionVariablePtr client_cv;  // a request finished (max-concurrency slot)
  int in_flight = 0;                             // sent, not finished
  bool all_routed = false;                       // the client has sent and routed every request
  // Elastic joins: when the KV library's connection between (prefill instance, stage, decode
  // instance, decode rank) is up, for pairs where either instance joined (cost/elastic_joins).
  std::map<std::array<int, 4>, double> kv_connected_s;
  Json autoscale_joins = Json::array();  // joins the autoscaling rule started (elastic_router)

  Request& request(int id) { return requests[static_cast<size_t>(id)]; }
  PrefillInstance& prefill_of(const Request& r) {
    return *prefill[static_cast<size_t>(r.rec.prefill_instance)];
  }
  DecodeInstance& decode_of(const Request& r) {
    return *decode[static_cast<size_t>(r.rec.decode_instance)];
  }
  DecodeRank& rank_of(const Request& r) {
    return decode_of(r).ranks[static_cast<size_t>(r.rec.decode_rank)];
  }
  int stage_node(int pi, int stage) const;  // cluster node of a prefill PP stage
  simgrid::s4u::Host* stage_host(int pi, int stage) const;
};

}  // namespace pdsim

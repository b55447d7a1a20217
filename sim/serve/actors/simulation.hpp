#pragma once
// The serving discrete-event simulation on SimGrid S4U, split the way Vidur splits one:
//   entities   — Request (request.hpp), instances and ranks (serving_world.hpp);
//   policies   — router (router_policy.hpp), KV reservation (kv_reservation.hpp), admission
//                (admission_policy.hpp);
//   timers     — prefill chunk (prefill_chunk_timer.hpp) and decode iteration
//                (decode_iteration_timer.hpp), each owning its phase's whole rule;
//   actors     — client, prefill PP stages, KV transfers, decode instances (*_actor.hpp), which
//                only move requests and sleep for what the timers return;
//   statistics — an observer that builds the results' extras (serving_stats.hpp).
// The SimGrid engine is one per process: run one simulation per process (run_scenario.hpp).
#include <cstdint>

#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

SimResults simulate(const Deployment& d, uint64_t seed);

}  // namespace pdsim

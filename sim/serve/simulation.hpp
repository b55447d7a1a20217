#pragma once
// The serving discrete-event simulation on SimGrid S4U actors:
//   client     — bench_serving arrivals (Poisson / burst, optional max-concurrency semaphore);
//   router     — mini-lb: round-robin prefill instance, round-robin decode instance and DP rank;
//                the decode rank reserves KV slots first (bootstrap), else the request waits;
//   prefill    — per instance one actor per PP stage; stage 0 forms chunks FCFS up to
//                chunked_prefill_size, each later stage receives the chunk's activations over
//                the network (a SimGrid flow) so the pipeline fills;
//   kv         — when a stage finishes a request's last chunk it sends its layers' KV to the
//                decode rank's node (a SimGrid flow capped by the engine's block-size rate);
//   decode     — per instance one actor iterating continuous batching over its DP ranks; a
//                request joins at the next iteration boundary after its KV arrived and streams
//                its first token (produced by prefill) then; every iteration streams each running
//                request one chunk of accepted tokens.
// The SimGrid engine is one per process: run one simulation per process (run_scenario.hpp).
#include <cstdint>

#include "sim/serve/deployment.hpp"
#include "sim/serve/results.hpp"

namespace pdsim {

SimResults simulate(const Deployment& d, uint64_t seed);

}  // namespace pdsim

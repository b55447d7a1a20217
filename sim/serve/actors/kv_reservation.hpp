#pragma once
// Bootstrap (KV reservation) on a decode rank: a request first reserves input_len + output_len
// KV tokens and one request slot on its decode rank (slots = Deployment::max_requests_per_rank);
// until then it waits FIFO per rank and does not enter prefill. Once reserved it joins its
// prefill instance's queue.
#include "sim/serve/actors/serving_world.hpp"

namespace pdsim {

// At routing: reserves now if nobody waits ahead on the rank and the rank has room, else queues.
void reserve_or_wait(ServingWorld& w, int id);
// At finish: returns the request's KV tokens and slot, then reserves for waiting requests in
// order while they fit.
void release_reservation(ServingWorld& w, int id);

}  // namespace pdsim

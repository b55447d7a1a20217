#pragma once
// The client actor: bench_serving's request loop. Sends each request after its gap (Poisson or
// all at once, workload.hpp), holds at most `max_concurrency` in flight (a semaphore released when
// a request finishes), and hands each to the router policy, whose route fixes the request's
// prefill instance and decode rank; the request then reserves its KV slots (kv_reservation.hpp).
#include "sim/serve/actors/serving_world.hpp"
#include "sim/serve/policies/router_policy.hpp"

namespace pdsim {

class ClientActor {
 public:
  ClientActor(ServingWorld& w, RouterPolicy& router) : w_(w), router_(router) {}
  void operator()();

 private:
  ServingWorld& w_;
  RouterPolicy& router_;
};

}  // namespace pdsim

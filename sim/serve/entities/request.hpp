#pragma once
// A request in the serving simulation: what the client asked for, what the results report about
// it, and its progress through prefill, KV transfer and decode.
#include "sim/serve/entities/results.hpp"
#include "sim/serve/entities/workload.hpp"

namespace pdsim {

struct Request {
  RequestSpec spec;
  RequestRecord rec;        // timestamps and placement, as reported
  int prefilled = 0;        // prompt tokens prefilled so far
  int kv_parts = 0;         // KV parts delivered (one per PP stage)
  int remaining = 0;        // output tokens still to stream
  double accept_carry = 0;  // expected accepted tokens not yet streamed (token_acceptance.hpp)
};

}  // namespace pdsim

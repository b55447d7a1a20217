#pragma once
// A request in the serving simulation: what the client asked for, what the results report about
// it, and its progress through prefill, KV transfer and decode.
#include <cstdint>

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
  // The router's bootstrap room: a random 64-bit number per request (SGLang's PD router), which
  // SGLang's DP controllers use to pick a DP rank on both roles (follow_bootstrap_room).
  uint64_t bootstrap_room = 0;
  // With DP attention in prefill, the DP rank that prefills it: bootstrap_room % dp_size. 0
  // without DP attention.
  int prefill_dp_rank = 0;
};

}  // namespace pdsim

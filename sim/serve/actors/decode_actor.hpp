#pragma once
// One decode instance: iterates continuous batching over its DP ranks while any has work. At each
// iteration boundary the admission policy picks which requests whose KV has arrived join; a
// request streams its first token (computed by prefill) when it joins. The iteration timer says
// how long the iteration takes; after it every running request streams one chunk of accepted
// tokens (token_acceptance: acceptance.hpp); a finished request frees its KV reservation.
#include <cstdint>

#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/serving_stats.hpp"
#include "sim/serve/actors/serving_world.hpp"
#include "sim/serve/cost/acceptance.hpp"
#include "sim/serve/policies/admission_policy.hpp"

namespace pdsim {

class DecodeActor {
 public:
  DecodeActor(ServingWorld& w, AdmissionPolicy& admission, DecodeIterationTimer& timer,
              const AcceptanceModel& acceptance, ServingStats& stats, int instance, uint64_t seed)
      : w_(w),
        admission_(admission),
        timer_(timer),
        acceptance_(acceptance),
        stats_(stats),
        di_(instance),
        seed_(seed) {}
  void operator()();

 private:
  int admit(DecodeInstance& inst, double now);  // returns how many joined
  void emit(Request& q, int tokens, double now);
  void finish(DecodeInstance& inst, Request& q, double now);

  ServingWorld& w_;
  AdmissionPolicy& admission_;
  DecodeIterationTimer& timer_;
  const AcceptanceModel& acceptance_;
  ServingStats& stats_;
  int di_;
  uint64_t seed_;
};

}  // namespace pdsim

#pragma once
// The passes one decode iteration makes, read once from `decode.speculative`:
//   no speculation  — one target forward, 1 token per request;
//   EAGLE (topk-1 chain) — `draft_steps` draft forwards of 1 token per request, one verify
//                     forward of the target over `query_tokens` (= num_draft_tokens) per request,
//                     and one draft-extend forward over `query_tokens` per request.
// A draft forward is the MTP layer: attention plus one MoE block, with its own dispatch and
// combine. Everything that depends on speculation asks this, not the scenario.
#include "sim/serve/scenario.hpp"

namespace pdsim {

struct DecodePasses {
  bool speculative = false;
  int draft_steps = 0;   // draft forwards per iteration
  int query_tokens = 1;  // tokens per request in the verify and draft-extend forwards
  // Forwards per iteration: the target's, plus the draft steps and the draft-extend.
  int forwards() const { return speculative ? draft_steps + 2 : 1; }
};

DecodePasses decode_passes(const SpeculativeConfig& s);

}  // namespace pdsim

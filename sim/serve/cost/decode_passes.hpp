#pragma once
// The passes one decode iteration makes, read once from `decode.speculative`:
//   no speculation  — one target forward, 1 token per request, one CUDA-graph replay;
//   EAGLE (topk-1 chain, SGLang 0.5 eagle_worker) — the draft graph runs num_steps − 1 draft
//                     forwards of 1 token per request ("we don't need to run the last forward":
//                     the previous draft-extend already produced the first draft token), then
//                     one verify forward of the target over `query_tokens` (= num_draft_tokens)
//                     per request, then one draft-extend forward over `query_tokens` per request:
//                     three graph replays, with the host's verify bookkeeping between them.
// A draft forward is the MTP layer: attention plus one MoE block, with its own dispatch and
// combine (SGLang treats the NextN layer as sparse and runs DeepEP in it). Everything that depends
// on speculation asks this, not the scenario.
#include "sim/scenario/scenario.hpp"

namespace pdsim {

struct DecodePasses {
  bool speculative = false;
  int draft_steps = 0;    // draft forwards per iteration (1 token per request)
  int query_tokens = 1;   // tokens per request in the verify and draft-extend forwards
  int graph_replays = 1;  // CUDA-graph replays per iteration (host round trips)
  // Forwards per iteration: the target's, plus the draft steps and the draft-extend.
  int forwards() const { return speculative ? draft_steps + 2 : 1; }
};

DecodePasses decode_passes(const SpeculativeConfig& s);

}  // namespace pdsim

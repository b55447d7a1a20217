#include "sim/serve/cost/decode_passes.hpp"

namespace pdsim {

DecodePasses decode_passes(const SpeculativeConfig& s) {
  DecodePasses p;
  p.speculative = s.enabled();
  p.draft_steps = p.speculative ? s.num_steps - 1 : 0;
  p.query_tokens = p.speculative ? s.num_draft_tokens : 1;
  p.graph_replays = p.speculative ? 3 : 1;  // draft, verify, draft-extend
  return p;
}

}  // namespace pdsim

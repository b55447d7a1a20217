#include "sim/serve/decode_passes.hpp"

namespace pdsim {

DecodePasses decode_passes(const SpeculativeConfig& s) {
  DecodePasses p;
  p.speculative = s.enabled();
  p.draft_steps = p.speculative ? s.num_steps : 0;
  p.query_tokens = p.speculative ? s.num_draft_tokens : 1;
  return p;
}

}  // namespace pdsim

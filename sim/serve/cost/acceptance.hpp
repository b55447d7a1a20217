#pragma once
// Speculative-decoding acceptance model "chain-geometric": a topk-1 chain of `num_steps` draft
// tokens; draft token i is accepted with probability p given that tokens < i were, and the
// target always adds one token of its own. Tokens per verify step k ∈ [1, num_steps + 1] with
// P(k) = p^(k−1)(1 − p) for k ≤ num_steps and p^num_steps for k = num_steps + 1, so
// E[k] = Σ_{i=0..num_steps} p^i. Draws are independent across requests and steps (no
// per-request acceptance correlation: a documented simplification).
#include "sim/core/rng.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

class AcceptanceModel {
 public:
  // `accept_prob`: per draft token (the deployment resolves it from the acceptance profile);
  // `variance` (tail.acceptance_variance): chunk_tokens() draws; off, it streams the expectation.
  AcceptanceModel(const SpeculativeConfig& c, double accept_prob, bool variance = true);
  int sample_tokens(Rng& rng) const;  // tokens emitted by one verify step of one request
  double mean_tokens() const;
  // Tokens in one request's chunk of one iteration: drawn, or (variance off) the expected count
  // with the fraction carried in `carry` to the request's next chunk.
  int chunk_tokens(Rng& rng, double& carry) const;

 private:
  bool enabled_;
  int steps_;
  double p_;
  bool variance_;
};

}  // namespace pdsim

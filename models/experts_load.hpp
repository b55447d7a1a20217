#pragma once
// What the routed experts' grouped GEMM on one GPU depends on (models/ffn_ops.cpp): the tokens
// over its local experts and how many of those experts got any (each reads its weights once).
// Callers that cost many routing samples memoize on it (sim/serve/cost/decode_cost.cpp).
#include <span>
#include <vector>

namespace pdsim {

struct ExpertsLoad {
  double tokens = 0, active = 0;
  bool operator==(const ExpertsLoad&) const = default;
};

// Token counts per local expert as doubles or ints (summed as doubles either way: exact for
// counts below 2^53, so both give the same load).
template <class T>
ExpertsLoad experts_load(std::span<const T> tokens_per_local_expert) {
  ExpertsLoad l;
  for (double t : tokens_per_local_expert) {
    l.tokens += t;
    if (t > 0) l.active += 1;
  }
  return l;
}
inline ExpertsLoad experts_load(const std::vector<double>& tokens_per_local_expert) {
  return experts_load(std::span<const double>(tokens_per_local_expert));
}

}  // namespace pdsim

#pragma once
// Expert-load skew (tail.expert_skew): expert popularity ∝ 1 / r^s over a random ranking of the
// experts (drawn once per run from the seed), each token choosing top_k distinct experts with
// those weights. Without EPLB experts sit on ranks contiguously (hot experts make hot ranks);
// with EPLB they are placed heaviest first on the least-loaded rank with a free slot, which
// balances the expected rank load (DeepSeek EPLB's goal; replication of hot experts is not
// modelled). Off by default: no published per-expert load distribution for GLM-5.1 decode.
#include <vector>

#include "sim/core/fields.hpp"
#include "sim/core/rng.hpp"
#include "sim/fabric/alltoall.hpp"

namespace pdsim {

// Scenario section tail.expert_skew (registered in expert_skew.cpp).
struct ExpertSkewConfig {
  bool enabled = false;  // no published per-expert load figure for GLM-5.1 decode: off
  double zipf_s = 0;     // expert popularity ∝ 1 / rank^s (random ranking per run)
  bool eplb = true;      // EPLB places experts so that rank loads are balanced
  Json provenance;

  template <class V>
  static void declare(V& v) {
    using E = ExpertSkewConfig;
    v.field(&E::enabled, "enabled",
            {.help = "expert popularity follows a Zipf law over a random ranking; off: no "
                     "published per-expert load figure for GLM-5.1 decode"});
    v.field(&E::zipf_s, "zipf_s", {.help = "popularity of the r-th expert ∝ 1 / r^s", .min = 0});
    v.field(&E::eplb, "eplb", {.help = "EPLB places experts so that rank loads are balanced"});
    v.field(&E::provenance, "provenance",
            {.help = "the source of zipf_s (required when enabled)", .nullable = true});
  }
  static void validate(ExpertSkewConfig& c, const JsonNode& n);
};

class ExpertSkew {
 public:
  ExpertSkew(const A2AConfig& c, double zipf_s, bool eplb, uint64_t seed);
  // Same layout as sample_routing: tokens_per_expert indexed by slot (rank · experts/rank + i).
  Routing sample(const A2AConfig& c, const std::vector<int>& tokens_per_rank, Rng& rng) const;

 private:
  std::vector<double> weight_;  // per slot, sums to 1
};

}  // namespace pdsim

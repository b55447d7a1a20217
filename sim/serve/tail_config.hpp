#pragma once
// Scenario section `tail`: the ITL-tail mechanisms of the decode simulation, each a switch
// (scenarios/README.md documents them). Mechanisms that the serving simulation models from its
// own inputs default on; those whose parameters have no published or measured source default
// off (their parameters then carry a `provenance` when a user turns them on).
#include "sim/core/json_reader.hpp"

namespace pdsim {

struct TailConfig {
  bool dp_imbalance = true;         // slowest DP rank sets the pace (off: the mean rank does)
  bool cuda_graph_miss = true;      // eager launch when the batch exceeds the captured sizes
  bool batch_jumps = true;          // all requests whose KV arrived join at once (off: one per
                                    // rank per iteration)
  bool acceptance_variance = true;  // accepted tokens drawn per request and step (off: each
                                    // chunk carries the expected count, fractions carried)
  bool fabric_background = true;    // packet fidelity: KV / PP flows in flight slow the a2a
  struct ExpertSkew {
    bool enabled = false;  // no published per-expert load figure for GLM-5.1 decode: off
    double zipf_s = 0;     // expert popularity ∝ 1 / rank^s (random ranking per run)
    bool eplb = true;      // EPLB places experts so that rank loads are balanced
    Json provenance;
  } expert_skew;
  struct Hiccups {
    bool enabled = false;    // no published measurement of SGLang scheduler stalls: off
    double probability = 0;  // per decode iteration
    double delay_us = 0;
    Json provenance;
  } scheduler_hiccups;

  Json to_json() const;
};

TailConfig parse_tail(const JsonNode& n);

}  // namespace pdsim

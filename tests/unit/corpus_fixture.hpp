#pragma once
// Corpus runs for the envelope and spread tests: every coordinate at a plain value, some replaced.
#include <string>
#include <utility>
#include <vector>

#include "sim/fit/calibration_corpus.hpp"

namespace pdsim::testing {

// Every coordinate at a plain value; `changes` replaces some.
inline Coordinates coords(const Json& changes = Json::object()) {
  Json j = {{"model", "m1"},
            {"platform", "p5en.48xlarge"},
            {"serving_stack", "sglang-0.5-pd"},
            {"fabric", "efa-p5en"},
            {"prefill.layout", "TP16, MoE TP"},
            {"prefill.moe_path", "none (no all-to-all)"},
            {"decode.layout", "TP16, MoE TP"},
            {"decode.moe_path", "none (no all-to-all)"},
            {"decode.a2a_nics_per_gpu", "-"},
            {"kv_transport", "mooncake rdma"},
            {"speculative", "none"},
            {"concurrency", 2},
            {"input_len", 1024},
            {"output_len", 256},
            {"decode.requests_per_rank", 2}};
  for (auto it = changes.begin(); it != changes.end(); ++it) j[it.key()] = it.value();
  return coordinates_from_json(JsonNode::from_json(j, "test"));
}

// A run of set "set" measured in file "m/NAME".
inline CorpusRun corpus_run(const std::string& name, const Json& changes,
                            std::vector<CorpusPoint> pts, std::vector<std::string> fitted_by = {}) {
  return {"set", name, "m/" + name, coords(changes), std::move(pts), std::move(fitted_by)};
}

}  // namespace pdsim::testing

#pragma once
// A scenario's deployment as SGLang 0.5.x launch flags: `python3 -m sglang.launch_server` for a
// prefill and a decode instance, and `python3 -m sglang_router.launch_router` for the PD router.
// Flags whose value the simulator does not model (EPLB, dispatch algorithm, NSA CP mode, dense-TP)
// are the reference deployment's settings (mission.md); per-host flags are placeholders.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

struct SglangFlags {
  std::string prefill, decode, router;  // flags only, space-separated
  std::string decode_env;               // environment the decode servers need
  std::vector<std::string> notes;       // what a user must add, or what the flags cannot say
  Json to_json() const;
  std::string text() const;  // the three commands, for a terminal
};

// Reads the model catalog entry (its Hugging Face id and whether it uses NSA).
SglangFlags sglang_flags(const Scenario& s);

}  // namespace pdsim

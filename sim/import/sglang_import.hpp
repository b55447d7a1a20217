#pragma once
// `pdsim import sglang`: SGLang launch command lines (prefill and decode `launch_server`, and
// optionally the PD router) → the deployment part of a scenario: "prefill", "decode", "router"
// (and "model" when --model-path names a catalog entry; "fabric" with the all-to-all backend that
// the servers' NVSHMEM environment selects, sim/import/fabric_env.hpp), in scenarios/README.md's
// field names.
//
// Every flag of the reference deployment (mission.md) is understood and its value checked; a
// value pdsim cannot model is an InputError naming the flag and what is modelled. Flags that do
// not change the performance model, and flags pdsim does not know, are returned in "ignored"
// with a reason, never dropped. Flags SGLang resolves at start-up when absent (memory
// fraction, chunk size, ...) fall back to the scenario default, with a note.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct SglangCommandLines {
  std::string prefill, decode, router;  // router may be empty
};

// Returns {"schema": "pdsim.deployment-import/1", "source", ["model"], ["fabric"], "router",
// "prefill", "decode", "sglang" (understood flags and values per role), "ignored" [{role, flag,
// value, reason}], "notes" [...]}. Throws InputError (file = "--prefill"/"--decode"/"--router",
// field = the flag) for malformed or unmodelled values.
Json import_sglang(const SglangCommandLines& lines);

// The scenario sections of an import result (what a scenario file takes): "prefill",
// "decode", "router" and, when present, "model" and "fabric".
Json deployment_sections(const Json& imported);

}  // namespace pdsim

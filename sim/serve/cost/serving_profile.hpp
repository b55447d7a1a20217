#pragma once
// Serving-stack profile (models/profiles/serving/NAME.json, schema "pdsim.serving_profile/1"):
// the host-side costs of the serving software (scheduler, DP-attention synchronisation, graph
// replay, per-chunk work) — properties of the stack and its CPUs, not of the fabric or the GPU,
// so what is fitted here on one cluster transfers to another fabric. Each parameter's source is
// in the profile's provenance; one with no published or measured figure is 0 (off) until fitted.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct ServingProfile {
  std::string name;
  Json provenance;
  // Decode. The overlap scheduler prepares the next batch on the CPU while the GPU runs this one,
  // so host work is exposed only beyond the GPU time; without it, all of it adds to the iteration.
  enum class Overlap { automatic, on, off } overlap = Overlap::automatic;  // auto: on unless EAGLE
  double host_us_per_iteration = 0;     // scheduler, DP-attention batch sync, output processing
  double host_us_per_graph_replay = 0;  // launch and GPU→CPU sync around each graph replay
  // Prefill: host work per chunk and PP stage not overlapped with the GPU (scheduling, the
  // normal-mode all-to-all's CPU waits for receive counts, metadata).
  double prefill_host_us_per_chunk = 0;

  bool overlap_on(bool speculative) const;
};

ServingProfile serving_profile_from_json(const Json& doc, const std::string& file);

constexpr const char* kServingProfileSchema = "pdsim.serving_profile/1";

}  // namespace pdsim

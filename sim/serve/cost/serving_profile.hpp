#pragma once
// Serving-stack profile (models/profiles/serving/NAME.json, schema "pdsim.serving_profile/1"):
// the host-side costs of the serving software (scheduler, DP-attention synchronisation, graph
// replay, per-chunk work) — properties of the stack and its CPUs, not of the fabric or the GPU,
// so what is fitted here on one cluster transfers to another fabric. Each parameter's source is
// in the profile's provenance; one with no published or measured figure is 0 (off) until fitted.
// Its fields are declared (sim/core/fields.hpp): the reader and `pdsim calibrate serving --fit
// serving.<field>` (its type and range) come from the declarations.
#include <string>

#include "sim/core/fields.hpp"
#include "sim/core/time_bound.hpp"

namespace pdsim {

constexpr const char* kServingProfileSchema = "pdsim.serving_profile/1";
// Each host cost sits inside one forward step.
constexpr double kMaxStepUs = kMaxStepS * 1e6;

// Decode. The overlap scheduler prepares the next batch on the CPU while the GPU runs this one, so
// host work is exposed only beyond the GPU time; without it, all of it adds to the iteration.
struct ServingDecodeHost {
  std::string overlap_scheduler = "auto";
  double host_us_per_iteration = 0;
  double host_us_per_graph_replay = 0;

  template <class V>
  static void declare(V& v) {
    using D = ServingDecodeHost;
    v.field(&D::overlap_scheduler, "overlap_scheduler",
            {.help = "auto = on unless speculative decoding (SGLang 0.5.x without SPEC_V2)",
             .choices = {"auto", "on", "off"},
             .required = true});
    v.field(&D::host_us_per_iteration, "host_us_per_iteration",
            {.help = "scheduler, DP-attention batch sync, output processing",
             .unit = "us",
             .min = 0,
             .max = kMaxStepUs,
             .required = true});
    v.field(&D::host_us_per_graph_replay, "host_us_per_graph_replay",
            {.help = "launch and GPU-to-CPU sync around each CUDA-graph replay",
             .unit = "us",
             .min = 0,
             .max = kMaxStepUs,
             .required = true});
  }
};

// Prefill: host work per chunk and PP stage not overlapped with the GPU (scheduling, the
// normal-mode all-to-all's CPU waits for receive counts, metadata).
struct ServingPrefillHost {
  double host_us_per_chunk = 0;

  template <class V>
  static void declare(V& v) {
    v.field(&ServingPrefillHost::host_us_per_chunk, "host_us_per_chunk",
            {.help = "host work per chunk and PP stage not overlapped with the GPU",
             .unit = "us",
             .min = 0,
             .max = kMaxStepUs,
             .required = true});
  }
};

struct ServingProfile {
  std::string schema = kServingProfileSchema;
  std::string name, stack;
  Json provenance;
  ServingDecodeHost decode;
  ServingPrefillHost prefill;

  template <class V>
  static void declare(V& v) {
    using P = ServingProfile;
    v.field(&P::schema, "schema",
            {.help = "format version", .choices = {kServingProfileSchema}, .required = true});
    v.field(&P::name, "name", {.help = "what overlays name it by", .required = true});
    v.field(&P::stack, "stack", {.help = "the serving software it describes"});
    v.field(&P::provenance, "provenance",
            {.help = "where each number comes from", .required = true});
    v.section(&P::decode, "decode", {.help = "decode host costs", .required = true});
    v.section(&P::prefill, "prefill", {.help = "prefill host costs", .required = true});
  }

  // SGLang 0.5.x (server_args): EAGLE without SGLANG_ENABLE_SPEC_V2 disables the overlap scheduler.
  bool overlap_on(bool speculative) const;
};

ServingProfile serving_profile_from_json(const Json& doc, const std::string& file);

}  // namespace pdsim

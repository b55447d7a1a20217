#pragma once
// The numeric parameters of a fabric or GPU profile document that `pdsim sensitivity` perturbs,
// and the perturbed documents. A parameter is a number member of the document (recursively
// through objects such as a2a.<backend>), or a whole efficiency/rate curve ({"x": [...],
// "eff": [...]}: every point of `eff` scaled by the same factor; the x grid is a shape axis, not
// a parameter). Left out: identification (schema, name, transport, gpu), bookkeeping at any
// depth (provenance, fit residuals, raw hwkernels "measurements", held parameters' "priors"),
// booleans and strings.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct SensitivityParam {
  std::string name;               // "fabric:a2a.cpu-proxy.latency_us", "gpu:gemm_fp8.eff"
  std::string profile;            // "fabric" | "gpu"
  std::vector<std::string> path;  // member keys inside the profile document
  bool curve = false;             // scale every element of the array at `path`
  bool integer = false;           // an integer-typed JSON number (counts: threads, NICs)
  double base = 0;                // the document's value; 1 (the scale) for curves
};

// `profile` is "fabric" or "gpu" (decides the members left out and the name prefix).
// Deterministic order: members in the document's (sorted) key order, depth first.
std::vector<SensitivityParam> sensitivity_parameters(const std::string& profile, const Json& doc);

struct Perturbed {
  Json doc;
  double value = 0;  // the parameter's new value (the scale factor for curves)
};

// `doc` with the parameter multiplied by (1 + rel). Integer parameters go to the nearest integer,
// at least one away from the base in the direction of `rel`. nullopt when a relative step does
// not move the parameter (base 0).
std::optional<Perturbed> perturb_parameter(const Json& doc, const SensitivityParam& p, double rel);

}  // namespace pdsim

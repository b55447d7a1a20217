#pragma once
// Measurement files (schema "pdsim.measurement/1"): what probes, third-party-tool parsers and
// hand-entered published figures all produce, and what `pdsim calibrate fit` consumes.
//
// {
//   "schema": "pdsim.measurement/1",
//   "probe": "a2a_phase" | "pingpong" | "bandwidth" | "kv_transfer" | "scatter" | "a2a_loop" |
//            "collective" | "proxy_path" | "bench_serving" | "topology" | ...,
//   "provenance": {"kind": "published" | "measured", "source": "...", "reference": "url/paper",
//                  "measured_at": "ISO date", "host": "...", "tool": "...", "note": "..."},
//   "context": {free-form: provider, device, fabric, GPU, NICs, library versions ...},
//   "parameters": {probe-wide parameters, e.g. "hidden": 7168, "top_k": 8, "tokens_per_rank": 128},
//   "results": [ rows ]
// }
// Row conventions (units in the key names):
//   a2a_phase: {"ep":16,"phase":"dispatch"|"combine","backend":"ibgda"|"cpu-proxy"|"batched-proxy",
//                 "latency_us":..., "GBps":... (optional), "stat":"mean"|"median"|"p99" ...}
//   pingpong:    {"bytes":..., "latency_us":... (one-way), optional
//   "p50_us","p99_us","max_us","iterations"} bandwidth:   {"bytes":..., "GBps":..., optional
//   "msg_rate_mpps"} kv_transfer: {"block_bytes":..., "GBps":..., "op":"write"|"read", "nics":...}
//   collective:  {"op":"all_reduce"|..., "bytes":..., "time_us":..., "algbw_GBps":...,
//   "busbw_GBps":...}
//   a2a_serving_excess: {"backend":..., "phase":"dispatch"|"combine", "serving_us":...,
//   "unit_test_us":...} (a phase inside a serving system vs the library's test:
//   the prior of the backend's in-serving fixed cost, serving_prior.hpp)
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/core/registry.hpp"

namespace pdsim {

constexpr const char* kMeasurementSchema = "pdsim.measurement/1";

// Loads and validates the envelope (schema, probe, provenance, results array).
JsonNode load_measurement(const std::string& path);

// Parsers of third-party tool outputs into measurement JSON, registered by format name
// ("nccl-tests", "perftest", "fi_pingpong", "deepep", "pplx", "bench_serving", "aws-topology",...).
class MeasurementImporter {
 public:
  virtual ~MeasurementImporter() = default;
  // `text` is the tool's output; `file` is used in error messages. Returns measurement JSON.
  virtual Json parse(const std::string& text, const std::string& file) const = 0;
};
using MeasurementImporterRegistry = Registry<"calibrate.import.format", MeasurementImporter>;

}  // namespace pdsim

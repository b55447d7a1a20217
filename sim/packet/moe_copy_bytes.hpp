#pragma once
// Bytes of one (token, expert) copy in a DeepEP low-latency all-to-all phase
// (calibration-inputs.md): dispatch sends FP8 hidden + one FP32 scale per 128 + a 16 B header,
// combine sends BF16 hidden. Read from a workload's "hidden" and "phase" fields; any other phase
// is an input error naming the field.
#include <cstdint>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim::packet {

inline int64_t moe_copy_bytes(const JsonNode& workload) {
  const int64_t hidden = workload.at("hidden").positive_integer();
  const std::string phase = workload.at("phase").string();
  if (phase == "dispatch") return hidden + hidden / 128 * 4 + 16;
  if (phase != "combine") workload.at("phase").fail("expected 'dispatch' or 'combine'");
  return 2 * hidden;
}

}  // namespace pdsim::packet

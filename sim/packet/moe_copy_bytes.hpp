#pragma once
// Bytes of one (token, expert) copy in a DeepEP low-latency all-to-all phase, read from a packet
// workload's "hidden" and "phase" fields: the analytic fabric's a2a_message_bytes (one formula
// for both fidelities), rounded up to whole bytes. Any other phase is an input error naming the
// field.
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/fabric/alltoall.hpp"

namespace pdsim::packet {

inline int64_t moe_copy_bytes(const JsonNode& hidden, A2APhase phase) {
  A2AConfig c;
  c.hidden = static_cast<int>(hidden.positive_integer());
  return static_cast<int64_t>(std::ceil(a2a_message_bytes(c, phase)));
}

inline int64_t moe_copy_bytes(const JsonNode& workload) {
  const std::string phase = workload.at("phase").string();
  if (phase != "dispatch" && phase != "combine")
    workload.at("phase").fail("expected 'dispatch' or 'combine'");
  return moe_copy_bytes(workload.at("hidden"),
                        phase == "dispatch" ? A2APhase::dispatch : A2APhase::combine);
}

}  // namespace pdsim::packet

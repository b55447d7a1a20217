#pragma once
// Bytes of one (token, expert) copy in a DeepEP low-latency all-to-all phase: the analytic
// fabric's a2a_message_bytes (one formula for both fidelities), rounded up to whole bytes. The
// JsonNode forms read a packet workload's "hidden" and "phase" fields; any other phase is an
// input error naming the field.
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/fabric/alltoall.hpp"

namespace pdsim::packet {

inline int64_t moe_copy_bytes(int hidden, A2APhase phase) {
  A2AConfig c;
  c.hidden = hidden;
  return static_cast<int64_t>(std::ceil(a2a_message_bytes(c, phase)));
}

inline A2APhase read_a2a_phase(const JsonNode& workload) {
  const std::string phase = workload.at("phase").string();
  if (phase != "dispatch" && phase != "combine")
    workload.at("phase").fail("expected 'dispatch' or 'combine'");
  return phase == "dispatch" ? A2APhase::dispatch : A2APhase::combine;
}

inline int64_t moe_copy_bytes(const JsonNode& workload) {
  const A2APhase phase = read_a2a_phase(workload);
  return moe_copy_bytes(static_cast<int>(workload.at("hidden").positive_integer()), phase);
}

}  // namespace pdsim::packet

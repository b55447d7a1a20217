#pragma once
// Running one experiment of `pdsim fabric` and writing its outputs:
//   DIR/summary.json  fct_us {p50, p99, max, mean, count} over all messages, per-workload
//                     message and phase quantiles, network counters (drops, ECN marks, PAUSE
//                     frames and paused time, retransmissions, timeouts, CNPs), link
//                     utilisation and queue depth by link kind, events, sim_time_us; wall_s
//                     and events_per_s (the only fields that differ between identical runs)
//   DIR/messages.csv  one row per message: workload, src, dst, bytes, posted_us, fct_us
//   DIR/phases.csv    one row per phase: workload, phase, latency_us
//   DIR/links.csv     one row per link: kind, from, to, gbps, utilisation, max_queue_bytes,
//   paused_us
#include <optional>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim::packet {

struct FabricRunResult {
  Json summary;  // includes wall_s and events_per_s
  std::string messages_csv, phases_csv, links_csv;
  uint64_t events = 0;
  double wall_s = 0;
};

FabricRunResult run_fabric_experiment(const JsonNode& root, std::optional<uint64_t> seed = {});
void write_fabric_outputs(const FabricRunResult& r, const std::string& dir);

// Applies one `--set a.b[2].c=value` to `doc` (value parsed as JSON, else taken as a string).
// A path through a missing object or array element is an InputError naming `file` and the path;
// unknown leaf names are caught by the experiment reader's field checks.
void apply_override(Json& doc, const std::string& file, const std::string& assignment);

}  // namespace pdsim::packet

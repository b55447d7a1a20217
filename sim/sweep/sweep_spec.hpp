#pragma once
// A sweep file ("schema": "pdsim.sweep/1"): a base scenario, fixed overrides, and the points —
// a grid (cartesian product) and/or an explicit list of override sets over any scenario path —
// plus optional SLOs for the capacity search. Fields are documented in docs/sweep.md.
#include <optional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct SloSpec {
  bool enabled = false;  // an "slo" section is present
  // Limits (ms); absent = not constrained. A run meets the SLOs when every given metric is ≤ it
  // and every request completed.
  std::optional<double> p99_ttft_ms, mean_tpot_ms, p99_tpot_ms, p99_itl_ms;
  bool search = true;                 // bisect on workload.request_rate per configuration
  double rate_lo = 0, rate_hi = 0;    // bracket, req/s
  double rel_tolerance = 0.02;        // stop when hi − lo ≤ rel_tolerance × lo
  std::optional<double> target_rate;  // cheapest configuration must sustain this rate (req/s)
  Json to_json() const;
};

struct SweepPoint {
  int index = 0;   // canonical order: list entry major, then grid keys (sorted), last fastest
  Json overrides;  // {"dotted.path": value, ...}
  std::string id;  // stable_hash_hex(overrides.dump())
};

struct SweepSpec {
  std::string file, name;
  std::string base_file;  // the base scenario as resolved from the sweep file's directory
  Json base;              // resolved base scenario with "set" applied
  std::vector<SweepPoint> points;
  SloSpec slo;
  std::string hash;  // over base, points and slo: results of another sweep are refused
};

SweepSpec load_sweep(const std::string& path);
// `base_dir` resolves a relative "base"; `file` names the document in messages.
SweepSpec parse_sweep(const JsonNode& root, const std::string& base_dir);

// The point's scenario document: base + overrides (paths were checked at load).
Json point_scenario(const SweepSpec& s, const SweepPoint& p);

}  // namespace pdsim

// Reading a scenario: the declared fields (scenario.hpp) do the work; this file holds the rules
// that join fields (bounds that keep a run finite, the chain draft, the file-relative topology
// file, the name from the file) and `--set`; a file's `base` is merged in scenario_base.cpp.
#include "sim/scenario/scenario.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"
#include "sim/core/json_override.hpp"
#include "sim/core/path_name.hpp"
#include "sim/scenario/scenario_base.hpp"

namespace pdsim {
namespace {

constexpr double kMaxOutputTokens = 1e8;
constexpr double kMaxArrivalSpanS = kMaxTimeS;  // sim/core/time_bound.hpp

}  // namespace

void WorkloadConfig::validate(WorkloadConfig& w, const JsonNode& n) {
  // Bounds that keep a run's memory and simulated time finite (README "Inputs are bounded"): the
  // per-token ITL samples are kept, and the packet engine's clock is int64 picoseconds
  // (overflow at 9.2e6 s), so the mean arrival span num_prompts / request_rate is capped at 1e6 s.
  if (static_cast<double>(w.num_prompts) * w.output_len > kMaxOutputTokens)
    (n.has("output_len") ? n.at("output_len") : n)
        .fail("expected num_prompts x output_len at most 1e8 tokens (each is a kept ITL sample)");
  if (w.num_prompts / w.request_rate > kMaxArrivalSpanS)
    (n.has("request_rate") ? n.at("request_rate") : n)
        .fail("expected at least num_prompts / 1e6 s = " +
              std::to_string(w.num_prompts / kMaxArrivalSpanS) +
              " requests/s: the simulated horizon is bounded at 1e6 s (the packet clock is int64 "
              "picoseconds)");
  if (w.prior_num_prompts.size() != w.prior_input_lens.size())
    (n.has("prior_num_prompts") ? n.at("prior_num_prompts") : n)
        .fail("expected one entry per earlier run, as many as prior_input_lens (" +
              std::to_string(w.prior_input_lens.size()) + "), got " +
              std::to_string(w.prior_num_prompts.size()));
}

void SpeculativeConfig::validate(SpeculativeConfig& s, const JsonNode& n) {
  if (s.enabled() && s.num_draft_tokens != s.num_steps + 1)
    (n.has("num_draft_tokens") ? n.at("num_draft_tokens") : n)
        .fail("expected num_steps + 1 (= " + std::to_string(s.num_steps + 1) +
              ") for a topk-1 chain draft");
}

void PrefillConfig::validate(PrefillConfig& p, const JsonNode& n) {
  // A block is a whole number of bytes (one RDMA write); a fraction is a unit mistake.
  if (p.kv_block_bytes != std::floor(p.kv_block_bytes))
    n.at("kv_block_bytes").fail("expected a whole number of bytes (0 = one page of one layer)");
}

void ClusterConfig::validate(ClusterConfig& c, const JsonNode& n) {
  // Checked at every fidelity (the analytic one does not read it): a named file must exist,
  // relative to the working directory or to the scenario (as serve/cost/cluster_fabric resolves
  // it).
  if (c.topology_file.empty()) return;
  namespace fs = std::filesystem;
  const fs::path p(c.topology_file);
  std::error_code ec;
  const bool found =
      fs::is_regular_file(p, ec) ||
      (!p.is_absolute() && fs::is_regular_file(fs::path(n.file()).parent_path() / p, ec));
  if (!found)
    n.at("topology_file")
        .fail("an existing file (relative to the working directory or the scenario), got '" +
              excerpt(c.topology_file) + "'");
}

void Scenario::validate(Scenario& s, const JsonNode& n) {
  // load_scenario merges a file's base away (scenario_base.hpp); a document built in memory (a
  // sweep point, --set) has no folder to resolve one from.
  if (!s.base.empty())
    n.at("base").fail("expected no base here: a base is merged when a scenario file is loaded");
  s.file = n.file();
  // The name becomes the default output directory out/<name>: checked, or the file's stem.
  s.name = n.has("name") ? path_name(n.at("name")) : path_name_from_file(n.file(), "name");
}

Scenario parse_scenario(const JsonNode& n) {
  return read_fields<Scenario>(n);
}

void apply_override(Json& doc, const std::string& assignment, const std::string& file) {
  apply_json_override(doc, assignment, file + " (--set)",
                      {.create_missing = false, .what = "scenario path"});
}

std::string scenario_file(const std::string& arg) {
  // A path as given, or a name `pdsim list` prints (scenarios/NAME.json; NAME may name a
  // subfolder: dsr1/...).
  if (auto f = file_or_named(arg, "scenarios")) return *f;
  throw InputError(arg, "",
                   "a scenario file, or a scenario name that `pdsim list` prints (" +
                       (std::filesystem::path(data_root()) / "scenarios").string() +
                       "/NAME.json); neither exists");
}

Scenario load_scenario(const std::string& arg, const std::vector<std::string>& overrides) {
  const std::string path = scenario_file(arg);
  Scenario s = parse_scenario(load_scenario_document(path));
  if (overrides.empty()) return s;
  Json doc = s.resolved_json();
  for (const auto& o : overrides) apply_override(doc, o, path);
  Scenario out = parse_scenario(JsonNode::from_json(std::move(doc), path + " (after --set)"));
  out.file = path;
  out.file_warnings = s.tail.ignored_inputs("tail");
  return out;
}

std::vector<FieldInfo> scenario_fields() {
  return list_fields<Scenario>();
}

}  // namespace pdsim

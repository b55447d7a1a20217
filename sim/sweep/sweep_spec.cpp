#include "sim/sweep/sweep_spec.hpp"

#include <filesystem>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/json_override.hpp"
#include "sim/core/path_name.hpp"
#include "sim/core/stable_hash.hpp"
#include "sim/core/time_bound.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {
namespace {

// Every point is expanded (its overrides, id and hash) when the sweep is read: 100000 points take
// ~170 MB and ~1 s; 1e6 took 1.3 GB and over a minute before the first line. At 0.1-1 s of
// simulation per point, 1e5 points are already 3-30 CPU-hours: larger studies are several sweeps.
constexpr size_t kMaxPoints = 100000;

// An override set {"dotted.path": value}: every path must exist in the resolved base scenario.
Json read_overrides(const JsonNode& n, const Json& base) {
  if (!n.is_object()) n.fail("expected an object of \"dotted.path\": value");
  for (const auto& key : n.keys())
    if (!find_json_path(base, key))
      n.at(key).fail("unknown scenario path (not in the resolved base scenario)");
  return n.raw();
}

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

SloSpec read_slo(const JsonNode& n) {
  n.expect_only({"p99_ttft_ms", "mean_tpot_ms", "p99_tpot_ms", "p99_itl_ms", "search",
                 "rate_bracket", "rel_tolerance", "target_rate"});
  SloSpec s;
  s.enabled = true;
  auto limit = [&](const char* key, std::optional<double>& out) {
    if (n.has(key)) out = n.at(key).positive();
  };
  limit("p99_ttft_ms", s.p99_ttft_ms);
  limit("mean_tpot_ms", s.mean_tpot_ms);
  limit("p99_tpot_ms", s.p99_tpot_ms);
  limit("p99_itl_ms", s.p99_itl_ms);
  if (!s.p99_ttft_ms && !s.mean_tpot_ms && !s.p99_tpot_ms && !s.p99_itl_ms)
    n.fail("expected at least one of p99_ttft_ms, mean_tpot_ms, p99_tpot_ms, p99_itl_ms");
  s.search = n.bool_or("search", true);
  // A rate whose period exceeds kMaxTimeS simulates nothing meaningful; 1e9 req/s is beyond any
  // cluster (above it a bracket only lengthens the search).
  auto rate = [](const JsonNode& r) {
    const double v = r.number();
    if (!(v >= kMinRatePerS && v <= 1e9))
      r.fail(
          "expected a request rate in [1e-06, 1e9] req/s (one request per 1e6 s at least), "
          "got " +
          r.raw().dump());
    return v;
  };
  if (n.has("target_rate")) s.target_rate = rate(n.at("target_rate"));
  if (s.search) {
    JsonNode b = n.at("rate_bracket");
    if (!b.is_array() || b.size() != 2) b.fail("expected [low, high] request rates (req/s)");
    s.rate_lo = rate(b.at(size_t{0}));
    s.rate_hi = rate(b.at(size_t{1}));
    if (s.rate_hi <= s.rate_lo) b.fail("expected low < high");
    s.rel_tolerance = n.num_or("rel_tolerance", s.rel_tolerance);
    if (!(s.rel_tolerance > 0 && s.rel_tolerance < 1))
      n.at("rel_tolerance").fail("expected a number in (0, 1)");
  }
  return s;
}

}  // namespace

Json SloSpec::to_json() const {
  Json j = Json::object();
  auto put = [&](const char* k, const std::optional<double>& v) {
    if (v) j[k] = *v;
  };
  put("p99_ttft_ms", p99_ttft_ms);
  put("mean_tpot_ms", mean_tpot_ms);
  put("p99_tpot_ms", p99_tpot_ms);
  put("p99_itl_ms", p99_itl_ms);
  put("target_rate", target_rate);
  j["search"] = search;
  if (search) {
    j["rate_bracket"] = {rate_lo, rate_hi};
    j["rel_tolerance"] = rel_tolerance;
  }
  return j;
}

SweepSpec parse_sweep(const JsonNode& root, const std::string& base_dir) {
  root.expect_only({"schema", "name", "description", "base", "set", "grid", "list", "slo"});
  if (root.str_or("schema", "pdsim.sweep/1") != "pdsim.sweep/1")
    root.at("schema").fail("expected \"pdsim.sweep/1\"");
  SweepSpec s;
  s.file = root.file();
  // The name becomes the default results file out/sweeps/<name>.jsonl: checked, or the stem.
  s.name = root.has("name") ? path_name(root.at("name")) : path_name_from_file(s.file, "name");

  const std::string base = root.at("base").string();
  s.base_file = (!base.empty() && base[0] == '/') ? base : base_dir + "/" + base;
  // A scenario name as `pdsim list` prints it ("glm51-2p2d-efa-quick", "dsr1/...") when no such
  // file sits beside the sweep.
  std::error_code ec;
  if (!base.ends_with(".json") && !std::filesystem::exists(s.base_file, ec))
    s.base_file = scenario_file(base);
  s.base = load_scenario(s.base_file).resolved_json();
  if (root.has("set")) {
    const Json set = read_overrides(root.at("set"), s.base);
    for (const auto& [path, value] : set.items()) set_json_path(s.base, path, value, s.file);
    parse_scenario(JsonNode::from_json(s.base, s.file + " (base + set)"));  // type-check now
  }
  if (!root.has("grid") && !root.has("list"))
    root.fail("expected a \"grid\" or a \"list\" of points");

  std::vector<Json> list{Json::object()};
  if (root.has("list")) {
    JsonNode l = root.at("list");
    if (!l.is_array() || l.size() == 0) l.fail("expected a non-empty array of override objects");
    list.clear();
    for (size_t i = 0; i < l.size(); ++i) list.push_back(read_overrides(l.at(i), s.base));
  }
  std::vector<std::pair<std::string, Json>> axes;  // sorted by path (nlohmann objects are)
  if (root.has("grid")) {
    JsonNode g = root.at("grid");
    read_overrides(g, s.base);
    for (const auto& key : g.keys()) {
      JsonNode values = g.at(key);
      if (!values.is_array() || values.size() == 0)
        values.fail("expected a non-empty array of values");
      axes.emplace_back(key, values.raw());
    }
  }
  size_t total = list.size();
  for (const auto& [path, values] : axes) {
    total *= values.size();
    if (total > kMaxPoints)
      root.at("grid").fail(
          "expected at most 100000 points (list x grid) per sweep file, got more: split the "
          "study into several sweeps");
  }
  if (root.has("slo")) s.slo = read_slo(root.at("slo"));

  std::vector<size_t> digit(axes.size(), 0);
  std::map<std::string, int> seen;  // point id → index
  for (size_t li = 0; li < list.size(); ++li) {
    std::fill(digit.begin(), digit.end(), 0);
    const size_t combos = axes.empty() ? 1 : total / list.size();
    for (size_t c = 0; c < combos; ++c) {
      Json ov = list[li];
      for (size_t a = 0; a < axes.size(); ++a) {
        if (ov.contains(axes[a].first))
          root.at("list").at(li).at(axes[a].first).fail("path is also a grid axis");
        ov[axes[a].first] = axes[a].second[digit[a]];
      }
      if (s.slo.enabled && s.slo.search && ov.contains("workload.request_rate"))
        root.fail(
            "workload.request_rate is searched by \"slo\" (rate_bracket); remove it from the "
            "points");
      SweepPoint p;
      p.index = static_cast<int>(s.points.size());
      p.id = stable_hash_hex(ov.dump());
      if (const auto [it, fresh] = seen.emplace(p.id, p.index); !fresh)
        root.fail("points " + std::to_string(it->second) + " and " + std::to_string(p.index) +
                  " have the same overrides " + ov.dump() + " (duplicate grid or list value?)");
      p.overrides = std::move(ov);
      s.points.push_back(std::move(p));
      for (size_t a = axes.size(); a-- > 0;) {  // odometer: last axis fastest
        if (++digit[a] < axes[a].second.size()) break;
        digit[a] = 0;
      }
    }
  }
  Json canon = Json::object();
  canon["schema"] = "pdsim.sweep/1";
  canon["base"] = s.base;
  canon["points"] = Json::array();
  for (const auto& p : s.points) canon["points"].push_back(p.overrides);
  canon["slo"] = s.slo.enabled ? s.slo.to_json() : Json();
  s.hash = stable_hash_hex(canon.dump());
  return s;
}

SweepSpec load_sweep(const std::string& path) {
  return parse_sweep(JsonNode::load_file(path), dir_of(path));
}

Json point_scenario(const SweepSpec& s, const SweepPoint& p) {
  Json doc = s.base;
  for (const auto& [path, value] : p.overrides.items()) set_json_path(doc, path, value, s.file);
  return doc;
}

}  // namespace pdsim

#include "sim/sweep/analysis.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/sweep/results_file.hpp"
#include "sim/sweep/sglang_flags.hpp"

namespace pdsim {
namespace {

double num(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

// Whether a line meets the SLOs at the load the sweep asks for (target_rate when given).
bool meets_slo(const SloSpec& slo, const Json& line) {
  if (!line.contains("slo") || !line["slo"].value("meets", false)) return false;
  if (slo.search && slo.target_rate) {
    const Json& r = line["slo"]["max_request_rate"];
    return r.is_number() && r.get<double>() >= *slo.target_rate;
  }
  return true;
}

Json brief(const Json& line) {
  const double gpus = std::max(1, line.value("gpus", 1));
  const Json& s = line["summary"];
  Json b{{"point", line["point"]},
         {"id", line["id"]},
         {"overrides", line["overrides"]},
         {"gpus", line["gpus"]},
         {"mean_tpot_ms", num(s, "mean_tpot_ms")},
         {"p99_ttft_ms", num(s, "p99_ttft_ms")},
         {"p99_itl_ms", num(s, "p99_itl_ms")},
         {"request_throughput", num(s, "request_throughput")},
         {"output_tok_s_per_gpu", num(s, "output_throughput") / gpus}};
  if (line.contains("envelope")) {
    b["inside"] = line["envelope"]["inside"];
    b["differs"] = line["envelope"]["differs"];
  }
  if (line.contains("slo")) {
    const Json& slo = line["slo"];
    if (slo.contains("max_request_rate")) b["max_request_rate"] = slo["max_request_rate"];
    if (slo.contains("goodput_rps_per_gpu")) b["goodput_rps_per_gpu"] = slo["goodput_rps_per_gpu"];
    if (slo.value("bracket_limited", false)) b["bracket_limited"] = true;
  }
  return b;
}

// 4 significant digits for the terminal (the JSON keeps full precision).
std::string g4(const Json& v) {
  if (!v.is_number()) return v.dump();
  std::ostringstream o;
  o.precision(4);
  o << v.get<double>();
  return o.str();
}

// "  [outside what was measured: model, concurrency]" for a point whose envelope says so.
std::string outside_note(const Json& b) {
  if (!b.contains("inside") || b["inside"].get<bool>()) return "";
  std::string s;
  for (const auto& k : b["differs"]) s += (s.empty() ? "" : ", ") + k.get<std::string>();
  return "  [outside what was measured: " + s + "]";
}

}  // namespace

std::vector<size_t> pareto_frontier(const std::vector<FrontierInput>& pts) {
  std::vector<size_t> order(pts.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (pts[a].x != pts[b].x) return pts[a].x < pts[b].x;
    return pts[a].y > pts[b].y;
  });
  std::vector<size_t> out;
  for (size_t i : order)
    if (out.empty() || pts[i].y > pts[out.back()].y) out.push_back(i);
  return out;
}

Json analyze_sweep(const SweepSpec& spec, std::vector<Json> lines) {
  sort_by_point(lines);
  Json a{{"sweep", spec.hash}, {"name", spec.name}, {"points_total", spec.points.size()}};
  Json infeasible = Json::array(), errors = Json::array();
  std::vector<Json> ok;
  std::set<int> present;
  for (const auto& l : lines) {
    if (l.value("sweep", "") != spec.hash)
      throw InputError(spec.file, "",
                       "results line of point " + l["point"].dump() +
                           " belongs to another sweep (" + l.value("sweep", "") + ")");
    if (!present.insert(l["point"].get<int>()).second) continue;
    const std::string st = l.value("status", "");
    if (st == "ok" && l["summary"].is_object())
      ok.push_back(l);
    else if (st == "infeasible")
      infeasible.push_back(
          {{"point", l["point"]}, {"overrides", l["overrides"]}, {"reason", l["reason"]}});
    else
      errors.push_back(
          {{"point", l["point"]}, {"overrides", l["overrides"]}, {"reason", l["reason"]}});
  }
  Json missing = Json::array();
  for (const auto& p : spec.points)
    if (!present.count(p.index)) missing.push_back(p.index);
  a["counts"] = {{"ok", ok.size()},
                 {"infeasible", infeasible.size()},
                 {"error", errors.size()},
                 {"missing", missing.size()}};
  int inside = 0, located = 0;  // points that say where they stand (a corpus was given)
  for (const auto& l : ok)
    if (l.contains("envelope")) {
      ++located;
      inside += l["envelope"].value("inside", false) ? 1 : 0;
    }
  if (located) a["envelope"] = {{"inside", inside}, {"outside", located - inside}};
  a["infeasible"] = infeasible;
  a["errors"] = errors;
  a["missing"] = missing;

  std::vector<FrontierInput> xy;
  for (const auto& l : ok) {
    const Json b = brief(l);
    xy.push_back({b["mean_tpot_ms"].get<double>(), b["output_tok_s_per_gpu"].get<double>()});
  }
  Json frontier = Json::array();
  for (size_t i : pareto_frontier(xy)) frontier.push_back(brief(ok[i]));
  a["frontier"] = {{"x", "mean_tpot_ms"}, {"y", "output_tok_s_per_gpu"}, {"points", frontier}};

  a["cost_basis"] =
      "GPU count (models/catalog/instance has no prices), then goodput per GPU, then point index";
  if (!spec.slo.enabled) {
    a["slo"] = nullptr;
    a["cheapest"] = nullptr;
    return a;
  }
  a["slo"] = spec.slo.to_json();
  std::vector<Json> meeting;
  for (const auto& l : ok)
    if (meets_slo(spec.slo, l)) meeting.push_back(brief(l));
  auto goodput = [](const Json& b) {
    return b.contains("goodput_rps_per_gpu")
               ? b["goodput_rps_per_gpu"].get<double>()
               : b["request_throughput"].get<double>() / std::max(1, b["gpus"].get<int>());
  };
  std::stable_sort(meeting.begin(), meeting.end(), [&](const Json& x, const Json& y) {
    if (x["gpus"] != y["gpus"]) return x["gpus"].get<int>() < y["gpus"].get<int>();
    return goodput(x) > goodput(y);
  });
  a["meeting_slo"] = meeting;
  if (meeting.empty()) {
    a["cheapest"] = nullptr;
    return a;
  }
  Json cheapest = meeting.front();
  const SweepPoint& p = spec.points.at(cheapest["point"].get<size_t>());
  Scenario sc = parse_scenario(JsonNode::from_json(point_scenario(spec, p), spec.file));
  sc.file = spec.base_file;
  if (spec.slo.search && cheapest["max_request_rate"].is_number())
    sc.workload.request_rate = cheapest["max_request_rate"].get<double>();
  cheapest["sglang"] = sglang_flags(sc).to_json();
  cheapest["sglang_text"] = sglang_flags(sc).text();
  a["cheapest"] = cheapest;
  return a;
}

std::string analysis_text(const Json& a) {
  std::ostringstream t;
  const Json& c = a["counts"];
  t << "sweep " << a["name"].get<std::string>() << " (" << a["sweep"].get<std::string>()
    << "): " << a["points_total"] << " points, " << c["ok"] << " ok, " << c["infeasible"]
    << " infeasible, " << c["error"] << " error, " << c["missing"] << " missing\n";
  for (const auto& e : a["errors"])
    t << "  error at point " << e["point"] << " " << e["overrides"].dump() << ": "
      << e["reason"].get<std::string>() << "\n";
  if (a.contains("envelope"))
    t << "measured envelope: " << a["envelope"]["inside"] << " ok points inside a measured "
      << "deployment, " << a["envelope"]["outside"]
      << " outside (their results lines name what differs; `pdsim run` on one says more)\n";
  t << "Pareto frontier (mean TPOT ms vs output tok/s per GPU):\n";
  for (const auto& f : a["frontier"]["points"])
    t << "  point " << f["point"] << "  " << f["gpus"] << " GPUs  TPOT " << g4(f["mean_tpot_ms"])
      << " ms  " << g4(f["output_tok_s_per_gpu"]) << " tok/s/GPU  " << f["overrides"].dump()
      << outside_note(f) << "\n";
  if (a["slo"].is_null()) return t.str();
  t << "SLOs " << a["slo"].dump() << ": " << a["meeting_slo"].size()
    << " configurations meet them\n";
  for (const auto& m : a["meeting_slo"]) {
    t << "  point " << m["point"] << "  " << m["gpus"] << " GPUs";
    if (m.contains("max_request_rate"))
      t << "  max " << g4(m["max_request_rate"]) << " req/s"
        << (m.contains("bracket_limited") ? " (bracket limit: capacity may be higher)" : "");
    if (m.contains("goodput_rps_per_gpu"))
      t << "  goodput " << g4(m["goodput_rps_per_gpu"]) << " req/s/GPU";
    t << "  " << m["overrides"].dump() << "\n";
  }
  if (a["cheapest"].is_null()) {
    t << "no configuration meets the SLOs\n";
    return t.str();
  }
  const Json& ch = a["cheapest"];
  t << "cheapest (by " << a["cost_basis"].get<std::string>() << "): point " << ch["point"] << ", "
    << ch["gpus"] << " GPUs";
  if (ch.contains("max_request_rate")) t << ", up to " << g4(ch["max_request_rate"]) << " req/s";
  t << ", " << ch["overrides"].dump() << outside_note(ch) << "\n"
    << ch["sglang_text"].get<std::string>();
  return t.str();
}

}  // namespace pdsim

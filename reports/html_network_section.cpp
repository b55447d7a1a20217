// The network section of the run / compare page (html_run_sections.hpp): KV-cache traffic into
// each decode instance over time, and the decode all-to-all's time by modelled term.
#include <map>

#include "reports/breakdown.hpp"
#include "reports/html_charts.hpp"
#include "reports/html_run_sections.hpp"
#include "reports/report_colours.hpp"
#include "reports/run_time_series.hpp"

namespace pdsim {
namespace {

constexpr size_t kNetworkPoints = 400;

const Json& at_path(const Json& j, const std::vector<std::string>& path) {
  static const Json none;
  const Json* p = &j;
  for (const auto& k : path) {
    if (!p->is_object() || !p->contains(k)) return none;
    p = &p->at(k);
  }
  return *p;
}

}  // namespace

void add_network_sections(ReportDoc& d, const std::vector<RunView>& runs,
                          const std::vector<std::string>& colours) {
  // KV traffic: one line per (run, decode instance); a run's instances share its colour family.
  Named<std::vector<std::pair<double, double>>> kv;
  std::vector<std::string> kv_colours;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto bpt = pdsim_number(runs[i].summary, {"kv_transfer", "kv_bytes_per_token"});
    if (!bpt) continue;
    const KvRateSeries s = kv_rate_series(*runs[i].results, *bpt, kNetworkPoints);
    for (size_t inst = 0; inst < s.by_instance.size(); ++inst) {
      std::vector<std::pair<double, double>> pts;
      for (size_t k = 0; k < s.t_s.size(); ++k)
        pts.push_back({s.t_s[k], s.by_instance[inst][k] / 1e9});
      kv.push_back({runs[i].name + ": decode instance " + std::to_string(inst), pts});
      kv_colours.push_back(i < colours.size() ? colours[i] : "");
    }
  }
  if (!kv.empty())
    d.charts.push_back(
        {"kv-traffic", "KV-cache traffic into the decode instances",
         "GB/s arriving at each decode instance, mean over each of " +
             std::to_string(kNetworkPoints - 1) +
             " intervals: each transfer's bytes (prompt × KV bytes per token) spread evenly over "
             "its duration.",
         lines_chart(kv, kv_colours, "time since the first request (s)", "GB/s")});
  // All-to-all time by the backend's modelled terms, per decode iteration (all layers).
  Named<std::vector<BreakdownTerm>> bars;
  for (const auto& r : runs) {
    const Json& terms = at_path(r.summary, {"pdsim", "decode", "cost_model", "a2a_terms_total_us"});
    const auto iters = pdsim_number(r.summary, {"decode", "iterations"});
    if (!terms.is_object() || !iters || *iters <= 0) continue;
    // Keys are "<phase>.<term>" (decode_cost.cpp), phases in order of first appearance.
    std::vector<std::string> phases;
    std::map<std::string, std::vector<BreakdownTerm>> by_phase;
    for (const auto& [key, v] : terms.items()) {
      const auto dot = key.find('.');
      if (dot == std::string::npos || !v.is_number()) continue;
      const std::string phase = key.substr(0, dot);
      if (!by_phase.count(phase)) phases.push_back(phase);
      by_phase[phase].push_back({key.substr(dot + 1), v.get<double>() / *iters});
    }
    for (const auto& phase : phases) bars.push_back({r.name + ": " + phase, by_phase[phase]});
  }
  // KV and all-to-all on shared NICs: decode iterations whose all-to-all met a KV / PP flow on
  // the decode nodes' paths, and the stall it caused (tail_log.cpp; packet fidelity only).
  ReportTable share{"kv_a2a_sharing",
                    "KV transfers and the all-to-all on shared paths (packet fidelity; 0 at "
                    "analytic)",
                    {"run", "iterations overlapping a KV flow", "ITL samples in them",
                     "stall mean (µs)", "stall p99 (µs)", "stall max (µs)"},
                    {-1, 4, 4, 1, 1, 1},
                    {}};
  for (const auto& r : runs) {
    const Json& o = at_path(r.summary, {"pdsim", "tail", "kv_overlap"});
    if (!o.is_object()) continue;
    std::vector<Json> row = {r.name};
    for (const char* k :
         {"iterations_share", "samples_share", "stall_mean_us", "stall_p99_us", "stall_max_us"})
      row.push_back(o.contains(k) ? o.at(k) : Json(nullptr));
    share.rows.push_back(row);
  }
  if (!share.rows.empty()) d.tables.push_back(share);
  if (!bars.empty())
    d.charts.push_back({"a2a-terms", "All-to-all time by modelled term",
                        "µs per decode iteration, all layers, by the all-to-all backend's terms "
                        "(sim/fabric/README.md says what each is for each backend).",
                        breakdown_chart(bars)});
}

}  // namespace pdsim

// The run / compare page's account of an elastic run: each instance that joined or left
// (summary pdsim.elastic, sim/serve/actors/elastic_summary.hpp) with when it served or had
// drained, and TTFT / ITL of the requests that arrived before and after the change, so the page
// shows what stdout's "Elastic PD" block does.
#include <cstdio>

#include "reports/html_run_sections.hpp"

namespace pdsim {
namespace {

Json window_number(const Json& e, const char* window, const char* key) {
  if (!e.contains(window) || !e[window].contains(key)) return nullptr;
  return e[window][key];
}

}  // namespace

void add_elastic_sections(ReportDoc& d, const std::vector<RunView>& runs) {
  ReportTable t{"elastic",
                "Instances that joined or left (elastic): when each served or had drained, and "
                "mean TTFT / ITL of the requests that arrived before and after",
                {"run", "role", "instance", "change", "at (s)", "serves from / drained by (s)",
                 "cold start (s)", "requests to it", "TTFT before (ms)", "TTFT after (ms)",
                 "ITL before (ms)", "ITL after (ms)"},
                {-1, -1, -1, -1, 1, 3, 3, -1, 1, 1, 2, 2},
                {}};
  for (const auto& r : runs) {
    if (!r.summary.contains("pdsim") || !r.summary["pdsim"].contains("elastic")) continue;
    for (const auto& e : r.summary["pdsim"]["elastic"]) {
      const bool leave = e.contains("leave_s");
      const char* before = leave ? "before_leave" : "before_join";
      const char* after = leave ? "after_leave" : "after_ready";
      std::string change = leave ? "leaves (drained)" : "joins";
      if (e.value("trigger", "") == "autoscale") change += " (autoscaling rule)";
      Json cold = nullptr;
      if (!leave) {
        const Json& c = e["cold_start"];
        char lower[64];  // a lower bound: some object kinds have no published creation time
        std::snprintf(lower, sizeof lower, ">= %.3f", c.value("s", 0.0));
        cold = c.value("complete", true) ? Json(c.value("s", 0.0)) : Json(lower);
      }
      t.rows.push_back(
          {r.name, e.value("role", ""), e.value("instance", 0), change,
           leave ? e["leave_s"] : e["join_s"], leave ? e["drained_s"] : e["ready_s"], cold,
           e.value("requests_served", 0), window_number(e, before, "mean_ttft_ms"),
           window_number(e, after, "mean_ttft_ms"), window_number(e, before, "mean_itl_ms"),
           window_number(e, after, "mean_itl_ms")});
    }
  }
  if (!t.rows.empty()) d.tables.push_back(std::move(t));
}

}  // namespace pdsim

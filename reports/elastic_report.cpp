#include "reports/elastic_report.hpp"

#include <cstdio>

namespace pdsim {
namespace {

std::string window_line(const char* label, const Json& w) {
  char buf[256];
  if (w.value("requests", 0) == 0) {
    std::snprintf(buf, sizeof buf, "    %-12s no request arrived\n", label);
    return buf;
  }
  std::snprintf(buf, sizeof buf,
                "    %-12s %5d requests  TTFT mean %9.1f ms p99 %9.1f ms  ITL mean %7.2f ms p99 "
                "%7.2f ms\n",
                label, w.value("requests", 0), w.value("mean_ttft_ms", 0.0),
                w.value("p99_ttft_ms", 0.0), w.value("mean_itl_ms", 0.0),
                w.value("p99_itl_ms", 0.0));
  return buf;
}

std::string join_text(const Json& e) {
  const Json& c = e["cold_start"];
  std::string libs, trigger;
  for (const auto& l : c["libraries"]) libs += (libs.empty() ? "" : ", ") + l.get<std::string>();
  char buf[512];
  if (e.value("trigger", "") == "autoscale") {
    std::snprintf(buf, sizeof buf, " by the autoscaling rule (%.1f waiting per instance)",
                  e.value("queue_per_instance", 0.0));
    trigger = buf;
  }
  std::snprintf(buf, sizeof buf,
                "  %s instance %d joined at %.1f s%s, served from %.3f s (cold start %s%.3f s%s%s, "
                "warm-up %.1f s); %d requests went to it\n",
                e.value("role", "").c_str(), e.value("instance", 0), e.value("join_s", 0.0),
                trigger.c_str(), e.value("ready_s", 0.0),
                c.value("complete", true) ? "" : ">= ", c.value("s", 0.0), libs.empty() ? "" : ": ",
                libs.c_str(), e.value("warmup_s", 0.0), e.value("requests_served", 0));
  std::string s = buf;
  if (e.value("kv_connect_s", 0.0) > 0) {
    std::snprintf(buf, sizeof buf,
                  "    each KV peer pair connects on its first transfer: %.1f ms (lazy, as the KV "
                  "library does)\n",
                  e.value("kv_connect_s", 0.0) * 1e3);
    s += buf;
  }
  if (!c.value("complete", true)) {
    std::string unknown;
    for (const auto& u : c["unknown"])
      unknown += (unknown.empty() ? "" : ", ") + u.get<std::string>();
    s += "    left out of the cold start (no published creation time, or not in the catalog): " +
         unknown + "\n";
  }
  return s + window_line("before join", e["before_join"]) + window_line("joining", e["joining"]) +
         window_line("after", e["after_ready"]);
}

std::string leave_text(const Json& e) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  %s instance %d left at %.1f s (drained by %.3f s); %d requests went to it\n",
                e.value("role", "").c_str(), e.value("instance", 0), e.value("leave_s", 0.0),
                e.value("drained_s", 0.0), e.value("requests_served", 0));
  return buf + window_line("before leave", e["before_leave"]) +
         window_line("after", e["after_leave"]);
}

}  // namespace

std::string elastic_text(const Json& summary) {
  if (!summary.contains("pdsim") || !summary["pdsim"].contains("elastic")) return "";
  std::string s = "Elastic PD (elastic section; cold start from pdsim connections)\n";
  if (summary["pdsim"]["elastic"].empty()) s += "  no instance joined or left\n";
  for (const auto& e : summary["pdsim"]["elastic"])
    s += e.contains("leave_s") ? leave_text(e) : join_text(e);
  return s;
}

}  // namespace pdsim

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

}  // namespace

std::string elastic_text(const Json& summary) {
  if (!summary.contains("pdsim") || !summary["pdsim"].contains("elastic")) return "";
  std::string s = "Elastic joins (elastic section; cold start from pdsim connections)\n";
  for (const auto& e : summary["pdsim"]["elastic"]) {
    char buf[512];
    std::string libs;
    for (const auto& l : e["cold_start_libraries"])
      libs += (libs.empty() ? "" : ", ") + l.get<std::string>();
    std::snprintf(buf, sizeof buf,
                  "  %s instance %d joined at %.1f s, served from %.3f s (cold start %s%.3f s%s%s, "
                  "warm-up %.1f s); %d requests went to it\n",
                  e.value("role", "").c_str(), e.value("instance", 0), e.value("join_s", 0.0),
                  e.value("ready_s", 0.0),
                  e.value("cold_start_complete", true) ? "" : ">= ", e.value("cold_start_s", 0.0),
                  libs.empty() ? "" : ": ", libs.c_str(), e.value("warmup_s", 0.0),
                  e.value("requests_served", 0));
    s += buf;
    if (!e.value("cold_start_complete", true)) {
      std::string unknown;
      for (const auto& u : e["cold_start_unknown"])
        unknown += (unknown.empty() ? "" : ", ") + u.get<std::string>();
      s += "    no published creation time for " + unknown + "\n";
    }
    s += window_line("before join", e["before_join"]) + window_line("joining", e["joining"]) +
         window_line("after", e["after_ready"]);
  }
  return s;
}

}  // namespace pdsim

#include "reports/interval_report.hpp"

#include "reports/breakdown.hpp"
#include "reports/text_format.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {

std::string prediction_interval_text(const Json& summary, const Json& intervals,
                                     const std::string& title) {
  std::string from;
  if (!intervals.value("overlays", Json::array()).empty()) from = "the fit's covariance";
  for (const auto& p : intervals.value("priors", Json::array()))
    from += (from.empty() ? "the prior of " : " and the prior of ") +
            p.value("parameter", std::string()) + " [" + fmt_fixed(p.value("lower", 0.0), 0) +
            ", " + fmt_fixed(p.value("upper", 0.0), 0) + "]";
  std::string o = "Parameter uncertainty (" + title +
                  "): " + std::to_string(intervals.at("samples").get<int>()) + " draws from " +
                  from + ", 5-95 %\n";
  for (const auto& [key, q] : intervals.at("metrics").items()) {
    const auto point = summary_number(summary, key);
    o += pad("  " + key, 28, true) + (point ? fmt_fixed(*point, 2) : std::string("n/a")) + "  [" +
         fmt_fixed(q.at("p05").get<double>(), 2) + ", " + fmt_fixed(q.at("p95").get<double>(), 2) +
         "]\n";
  }
  return o;
}

}  // namespace pdsim

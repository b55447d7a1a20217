#include "reports/interval_report.hpp"

#include <vector>

#include "reports/breakdown.hpp"
#include "reports/text_format.hpp"
#include "sim/core/stats.hpp"
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

Json paired_ratio_intervals(const Json& a, const Json& b) {
  if (!a.is_object() || !b.is_object() || a.value("seed", Json()) != b.value("seed", Json()) ||
      a.value("samples", 0) != b.value("samples", 0) ||
      a.value("overlays", Json()) != b.value("overlays", Json()) || !a.contains("draws") ||
      !b.contains("draws"))
    return nullptr;
  Json out = Json::object();
  for (const auto& [key, da] : a["draws"].items()) {
    if (!b["draws"].contains(key)) continue;
    const Json& db = b["draws"][key];
    std::vector<double> r;
    for (size_t k = 0; k < da.size() && k < db.size(); ++k)
      if (da[k].is_number() && db[k].is_number() && da[k].get<double>() > 0)
        r.push_back(db[k].get<double>() / da[k].get<double>());
    if (r.empty()) continue;
    const size_t pairs = r.size();
    const Band q = band_of(std::move(r));
    out[key] = {{"p05", q.p05}, {"p50", q.p50}, {"p95", q.p95}, {"pairs", pairs}};
  }
  return out;
}

std::string paired_ratio_text(const Json& ratios, const std::string& name_a,
                              const std::string& name_b) {
  if (!ratios.is_object() || ratios.empty()) return "";
  std::string o = "Ratio " + name_b + " / " + name_a +
                  " over paired draws (shared fitted parameters cancel), 5-50-95 %\n";
  for (const auto& [key, q] : ratios.items())
    o += pad("  " + key, 28, true) + fmt_fixed(q.at("p05").get<double>(), 3) + "  " +
         fmt_fixed(q.at("p50").get<double>(), 3) + "  " + fmt_fixed(q.at("p95").get<double>(), 3) +
         "\n";
  return o;
}

}  // namespace pdsim

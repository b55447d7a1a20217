// The SLO parts of a sweep page (html_sweep_slo.hpp).
#include "reports/html_sweep_slo.hpp"

#include <sstream>

namespace pdsim {
namespace {

Json scalar_at(const Json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) && !obj.at(key).is_object() && !obj.at(key).is_array()
             ? obj.at(key)
             : Json(nullptr);
}

// The evaluation of the capacity search at `rate` (the search's evaluations list).
Json evaluation_at(const Json& slo, const Json& rate) {
  if (!slo.is_object() || !slo.contains("evaluations") || !rate.is_number()) return nullptr;
  for (const auto& e : slo.at("evaluations"))
    if (e.value("request_rate", Json(nullptr)) == rate) return e;
  return nullptr;
}

std::string first_violation(const Json& eval) {
  if (!eval.is_object() || !eval.contains("violations") || eval.at("violations").empty()) return "";
  return eval.at("violations").at(0).get<std::string>();
}

}  // namespace

void add_slo_lines(Json& chart, const Json& slo, const std::string& metric, double x_lo,
                   double x_hi) {
  if (!slo.is_object()) return;
  for (const char* stat : {"mean", "p99"}) {
    const std::string key = std::string(stat) + "_" + metric + "_ms";
    if (!slo.contains(key) || !slo.at(key).is_number()) continue;
    const double y = slo.at(key).get<double>();
    chart["data"]["datasets"].push_back(
        {{"label", "SLO: " + std::string(stat) + " " + metric + " ≤ " + slo.at(key).dump() + " ms"},
         {"data", {{{"x", x_lo}, {"y", y}}, {{"x", x_hi}, {"y", y}}}},
         {"borderColor", "#B2182B"},
         {"backgroundColor", "#B2182B"},
         {"borderDash", std::string(stat) == "p99" ? Json::array({8, 4}) : Json::array()},
         {"borderWidth", 1.5},
         {"pointRadius", 0}});
  }
}

ReportTable capacity_table(const std::vector<SweepResultPoint>& pts) {
  ReportTable t{
      "capacity",
      "Capacity under the SLOs (per configuration)",
      {"point", "config", "gpus", "max rate meeting SLOs (req/s)", "achieved there (req/s)",
       "lowest failing rate (req/s)", "why it fails", "limited by the bracket"},
      {-1, -1, -1, 3, 3, 3, -1, -1},
      {}};
  for (const auto& p : pts) {
    if (p.status != "ok" || !p.slo.is_object() || !p.slo.contains("evaluations")) continue;
    const Json max_rate = scalar_at(p.slo, "max_request_rate");
    const Json failing = scalar_at(p.slo, "min_failing_rate");
    const Json at_max = evaluation_at(p.slo, max_rate);
    t.rows.push_back({static_cast<long long>(p.point), p.config, static_cast<long long>(p.gpus),
                      max_rate, scalar_at(at_max, "achieved_request_rate"), failing,
                      first_violation(evaluation_at(p.slo, failing)),
                      scalar_at(p.slo, "bracket_limited")});
  }
  return t;
}

std::vector<ReportTable> cheapest_tables(const Json& analysis) {
  std::vector<ReportTable> out;
  if (!analysis.is_object() || !analysis.contains("slo") || analysis.at("slo").is_null())
    return out;
  const Json& ch = analysis.value("cheapest", Json(nullptr));
  ReportTable t{
      "cheapest", "Cheapest configuration meeting the SLOs", {"field", "value"}, {-1, -1}, {}};
  if (ch.is_null()) {
    t.rows.push_back({"result", "no configuration meets the SLOs " + analysis.at("slo").dump()});
    out.push_back(t);
    return out;
  }
  t.rows.push_back({"point", scalar_at(ch, "point")});
  t.rows.push_back({"overrides", ch.value("overrides", Json::object()).dump()});
  t.rows.push_back({"gpus", scalar_at(ch, "gpus")});
  t.rows.push_back(
      {"max request rate meeting the SLOs (req/s)", scalar_at(ch, "max_request_rate")});
  t.rows.push_back({"cost basis", analysis.value("cost_basis", "")});
  out.push_back(t);
  ReportTable f{"cheapest_sglang", "Its SGLang launch flags", {"line"}, {-1}, {}};
  std::istringstream in(ch.value("sglang_text", ""));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) f.rows.push_back({line});
  out.push_back(f);
  return out;
}

}  // namespace pdsim

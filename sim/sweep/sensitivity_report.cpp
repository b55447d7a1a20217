// The ranked table for a terminal and the JSON document `pdsim sensitivity -o` writes.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "sim/core/text_align.hpp"
#include "sim/sweep/sensitivity.hpp"

namespace pdsim {
namespace {

Json metrics_json(const SensitivityMetrics& m) {
  return {{"mean_tpot_ms", m.mean_tpot_ms},
          {"p99_itl_ms", m.p99_itl_ms},
          {"mean_ttft_ms", m.mean_ttft_ms}};
}
std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
// Exactly 0 (the outcome did not change at all: the scenario does not use the parameter) prints
// as "0", distinct from a small rounded value.
std::string fmt_e(const std::optional<double>& e) {
  if (!e) return "n/a";
  return *e == 0 ? "0" : fmt("%+.4f", *e);
}
}  // namespace

std::string step_percent(double step) {
  return fmt("%g", step * 100);
}

std::string sensitivity_text(const SensitivityResult& r) {
  std::ostringstream o;
  o << "Sensitivity of " << r.scenario_name << " (seed " << r.seed << ", step ±"
    << step_percent(r.step) << "%): elasticity E = d ln(metric) / d ln(parameter)\n"
    << "base: mean TPOT " << fmt("%.3f", r.base.mean_tpot_ms) << " ms, p99 ITL "
    << fmt("%.3f", r.base.p99_itl_ms) << " ms, mean TTFT " << fmt("%.1f", r.base.mean_ttft_ms)
    << " ms\n";
  size_t w = 9;
  for (const auto& row : r.rows) w = std::max(w, row.param.name.size());
  o << pad("rank", 4) << "  " << pad("parameter", w, true) << "  " << pad("value", 10) << "  "
    << pad("E(TPOT)", 9) << "  " << pad("E(p99ITL)", 9) << "  " << pad("E(TTFT)", 9)
    << "  method\n";
  int rank = 0;
  for (const auto& row : r.rows) {
    const std::string value = row.param.curve ? "x1 (curve)" : fmt("%.4g", row.param.base);
    o << pad(row.method == "skipped" ? "-" : std::to_string(++rank), 4) << "  "
      << pad(row.param.name, w, true) << "  " << pad(value, 10) << "  " << pad(fmt_e(row.e_tpot), 9)
      << "  " << pad(fmt_e(row.e_itl), 9) << "  " << pad(fmt_e(row.e_ttft), 9) << "  " << row.method
      << (row.note.empty() ? "" : " (" + row.note + ")") << "\n";
  }
  return o.str();
}

Json sensitivity_json(const SensitivityResult& r) {
  Json rows = Json::array();
  for (const auto& row : r.rows) {
    auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
    Json j = {
        {"parameter", row.param.name},
        {"profile", row.param.profile},
        {"kind", row.param.curve ? "curve scale" : (row.param.integer ? "integer" : "number")},
        {"value", row.param.base},
        {"method", row.method},
        {"lo_value", opt(row.lo_value)},
        {"hi_value", opt(row.hi_value)},
        {"lo", row.lo ? metrics_json(*row.lo) : Json(nullptr)},
        {"hi", row.hi ? metrics_json(*row.hi) : Json(nullptr)},
        {"elasticity",
         {{"mean_tpot_ms", opt(row.e_tpot)},
          {"p99_itl_ms", opt(row.e_itl)},
          {"mean_ttft_ms", opt(row.e_ttft)}}}};
    if (!row.note.empty()) j["note"] = row.note;
    rows.push_back(j);
  }
  return {{"schema", "pdsim.sensitivity/1"},
          {"scenario_name", r.scenario_name},
          {"seed", r.seed},
          {"step", r.step},
          {"method",
           "one at a time: each parameter set to p(1-step) and p(1+step), one simulation each "
           "with the base seed; elasticity = ln(M+/M-)/ln(p+/p-) (one-sided against the base "
           "run where one side is not a valid profile); curves scale every point; ranked by "
           "max(|E_tpot|, |E_p99_itl|)"},
          {"base", metrics_json(r.base)},
          {"parameters", rows},
          {"resolved_scenario", r.resolved_scenario},
          {"profiles", r.profiles}};
}

}  // namespace pdsim

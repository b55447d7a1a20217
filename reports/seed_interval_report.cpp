#include "reports/seed_interval_report.hpp"

#include <sstream>

#include "reports/text_format.hpp"
#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

std::string interval(const Json& m) {
  auto f = [](const Json& v) { return fmt_fixed(v.get<double>(), 1); };
  return f(m["p50"]) + " [" + f(m["p05"]) + ", " + f(m["p95"]) + "]";
}

}  // namespace

std::string seed_interval_text(const std::vector<Json>& entries) {
  if (entries.empty()) return "";
  std::ostringstream o;
  const Json& first = entries.front();
  o << centered(" ITL tail over " + std::to_string(first["seeds"].get<int>()) + " seeds ", '-', 50)
    << "\n";
  o << "median [5 %, 95 %] over seeds " << first["first_seed"].get<uint64_t>() << ".."
    << first["first_seed"].get<uint64_t>() + first["seeds"].get<uint64_t>() - 1 << "\n";
  constexpr size_t kLabel = 22, kCol = 30;
  o << column("", kLabel);
  for (const auto& e : entries) o << column(e["scenario"].get<std::string>(), kCol);
  o << "\n";
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"p99_itl_ms", "P99 ITL (ms)"},       {"max_itl_ms", "Max ITL (ms)"},
      {"median_itl_ms", "Median ITL (ms)"}, {"p99_tpot_ms", "P99 TPOT (ms)"},
      {"mean_tpot_ms", "Mean TPOT (ms)"},   {"mean_ttft_ms", "Mean TTFT (ms)"},
      {"p99_ttft_ms", "P99 TTFT (ms)"}};
  for (const auto& [key, label] : rows) {
    o << column(label, kLabel);
    for (const auto& e : entries)
      o << column(e["metrics"].contains(key) ? interval(e["metrics"][key]) : "n/a", kCol);
    o << "\n";
  }
  o << column("Predicted failures", kLabel);
  for (const auto& e : entries)
    o << column(
        std::to_string(e["failures"].size()) + " of " + std::to_string(e["seeds"].get<int>()),
        kCol);
  o << "\n";
  o << "Mechanism behind the worst gap (seeds):\n";
  for (const auto& e : entries) {
    o << "  " << e["scenario"].get<std::string>() << ":";
    for (const auto& [m, c] : e["worst_gap"]["mechanisms"].items())
      o << " " << m << " " << c.get<int>();
    o << "\n";
  }
  for (const auto& e : entries)
    for (const auto& f : e["failures"])
      o << "  " << e["scenario"].get<std::string>() << " seed " << f["seed"].get<uint64_t>()
        << " fails (" << f["failure"]["mechanism"].get<std::string>()
        << "): " << f["failure"]["cause"].get<std::string>() << "\n";
  o << "(\"none\": no mechanism adds more to the worst gap than to the median sample; it is the "
       "forward terms of a larger batch)\n";
  return o.str();
}

}  // namespace pdsim

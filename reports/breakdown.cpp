#include "reports/breakdown.hpp"

#include <algorithm>

namespace pdsim {

std::vector<BreakdownTerm> forward_terms(const Json& summary) {
  std::vector<BreakdownTerm> out;
  if (!summary.is_object() || !summary.contains("pdsim")) return out;
  const Json& pd = summary.at("pdsim");
  if (!pd.is_object() || !pd.contains("forward_breakdown_us")) return out;
  const Json& fb = pd.at("forward_breakdown_us");
  if (!fb.is_object()) return out;
  for (const auto& [k, v] : fb.items())
    if (v.is_number()) out.push_back({k, v.get<double>()});
  std::stable_sort(out.begin(), out.end(), [](const BreakdownTerm& a, const BreakdownTerm& b) {
    return a.us != b.us ? a.us > b.us : a.name < b.name;
  });
  return out;
}

std::optional<double> pdsim_number(const Json& summary, const std::vector<std::string>& path) {
  if (!summary.is_object() || !summary.contains("pdsim")) return std::nullopt;
  const Json* node = &summary.at("pdsim");
  for (const auto& k : path) {
    if (!node->is_object() || !node->contains(k)) return std::nullopt;
    node = &node->at(k);
  }
  if (!node->is_number()) return std::nullopt;
  return node->get<double>();
}

std::optional<double> summary_number(const Json& summary, const std::string& key) {
  if (!summary.is_object() || !summary.contains(key) || !summary.at(key).is_number())
    return std::nullopt;
  return summary.at(key).get<double>();
}

}  // namespace pdsim

#include "sim/core/plugin_catalog.hpp"

namespace pdsim {

PluginCatalog& PluginCatalog::instance() {
  static PluginCatalog c;
  return c;
}

void PluginCatalog::add(const std::string& family, const std::string& name,
                        const std::string& description) {
  families_[family][name] = description;
}

bool PluginCatalog::contains(const std::string& family, const std::string& name) const {
  auto it = families_.find(family);
  return it != families_.end() && it->second.count(name) > 0;
}

std::vector<std::string> PluginCatalog::names(const std::string& family) const {
  std::vector<std::string> out;
  auto it = families_.find(family);
  if (it != families_.end())
    for (const auto& [n, d] : it->second) out.push_back(n);
  return out;
}

std::string PluginCatalog::joined(const std::string& family) const {
  std::string s;
  for (const auto& n : names(family)) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::vector<std::pair<std::string, std::string>> PluginCatalog::entries(
    const std::string& family) const {
  std::vector<std::pair<std::string, std::string>> out;
  auto it = families_.find(family);
  if (it != families_.end())
    for (const auto& [n, d] : it->second) out.emplace_back(n, d);
  return out;
}

}  // namespace pdsim

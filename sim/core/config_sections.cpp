#include "sim/core/config_sections.hpp"

#include <algorithm>

namespace pdsim {

JsonNode detail::absent_section(const JsonNode& parent, const std::string& key) {
  const std::string path = parent.path().empty() ? key : parent.path() + "." + key;
  auto doc = std::make_shared<const Json>(Json::object());
  const Json* p = doc.get();
  return JsonNode(std::move(doc), p, parent.file(), path);
}

SectionRegistry& SectionRegistry::instance() {
  static SectionRegistry r;  // prototypes holding defaults only: no simulation state
  return r;
}

bool SectionRegistry::add(const std::string& family, const std::string& key,
                          std::unique_ptr<ConfigSection> prototype) {
  families_[family][key] = std::move(prototype);
  return true;
}

std::vector<std::string> SectionRegistry::keys(const std::string& family) const {
  std::vector<std::string> out;
  auto it = families_.find(family);
  if (it != families_.end())
    for (const auto& [k, v] : it->second) out.push_back(k);
  return out;
}

const ConfigSection* SectionRegistry::prototype(const std::string& family,
                                                const std::string& key) const {
  auto it = families_.find(family);
  if (it == families_.end()) return nullptr;
  auto k = it->second.find(key);
  return k == it->second.end() ? nullptr : k->second.get();
}

void ConfigSections::read(const JsonNode& n) {
  const auto& reg = SectionRegistry::instance();
  const std::vector<std::string> keys = reg.keys(family_);
  n.expect_only(keys);
  items_.clear();
  for (const auto& k : keys) {
    std::unique_ptr<ConfigSection> s = reg.prototype(family_, k)->fresh();
    const bool given = n.has(k);
    s->read(given ? n.at(k) : detail::absent_section(n, k), given);
    items_[k] = std::move(s);
  }
}

Json ConfigSections::write() const {
  Json out = Json::object();
  const auto& reg = SectionRegistry::instance();
  for (const auto& k : reg.keys(family_)) out[k] = find(k)->write();
  return out;
}

void ConfigSections::list(const std::string& path, std::vector<FieldInfo>& out) const {
  const auto& reg = SectionRegistry::instance();
  // The prototypes: they live as long as the program, and FieldInfo points into their help.
  for (const auto& k : reg.keys(family_)) reg.prototype(family_, k)->list(path + "." + k, out);
}

std::vector<std::string> ConfigSections::ignored_inputs(const std::string& path) const {
  std::vector<std::string> out;
  for (const auto& k : SectionRegistry::instance().keys(family_))
    for (auto& m : find(k)->ignored_inputs(path + "." + k)) out.push_back(std::move(m));
  return out;
}

std::vector<std::string> ConfigSections::no_effect(const std::string& path) const {
  std::vector<std::string> out;
  const auto& reg = SectionRegistry::instance();
  for (const auto& k : reg.keys(family_)) {
    const ConfigSection* sec = find(k);
    const std::string where = path + "." + k;
    for (auto& m : sec->ignored_inputs(where)) out.push_back(std::move(m));
    const Json j = sec->write();
    if (!j.is_object() || j.value("enabled", true)) continue;
    // The defaults: the section as read when the scenario does not name it.
    std::unique_ptr<ConfigSection> def = reg.prototype(family_, k)->fresh();
    def->read(detail::absent_section(JsonNode::from_json(Json::object(), "defaults"), k), false);
    for (auto& m :
         fields_without_effect(j, def->write(), where, {"enabled", "provenance", "from_profile"},
                               where + " is switched off (enabled: false)"))
      out.push_back(std::move(m));
  }
  return out;
}

std::vector<std::string> fields_without_effect(const Json& value, const Json& defaults,
                                               const std::string& path,
                                               const std::vector<std::string>& skip,
                                               const std::string& why) {
  std::vector<std::string> out;
  for (const auto& [key, v] : value.items()) {
    if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
    if (defaults.contains(key) && defaults.at(key) == v) continue;
    out.push_back(path + "." + key + " = " + v.dump() + " has no effect: " + why);
  }
  return out;
}

const ConfigSection* ConfigSections::find(std::string_view key) const {
  auto it = items_.find(key);
  if (it != items_.end()) return it->second.get();
  // Not read from a file (a config built in code): the registered defaults.
  const ConfigSection* p = SectionRegistry::instance().prototype(family_, std::string(key));
  if (!p) throw std::logic_error(family_ + "." + std::string(key) + ": no section registered");
  return p;
}

}  // namespace pdsim

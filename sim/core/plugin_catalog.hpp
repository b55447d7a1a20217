#pragma once
// The names registered in every plug-in family, by family name ("fabric.fidelity",
// "router.policy", ...), with their one-line descriptions. Registry::add records here, so a
// layer below the one that defines a family can check a name (the scenario reader) and list the
// choices (`pdsim explain`) without knowing the family's type. Factories only: no simulation
// state lives here.
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pdsim {

class PluginCatalog {
 public:
  static PluginCatalog& instance();
  void add(const std::string& family, const std::string& name, const std::string& description);
  bool contains(const std::string& family, const std::string& name) const;
  // Names of a family in name order ({} for a family nobody registered into).
  std::vector<std::string> names(const std::string& family) const;
  // "a, b, c" as Registry::names() writes it.
  std::string joined(const std::string& family) const;
  std::vector<std::pair<std::string, std::string>> entries(const std::string& family) const;

 private:
  std::map<std::string, std::map<std::string, std::string>> families_;
};

}  // namespace pdsim

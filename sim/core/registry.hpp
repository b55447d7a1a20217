#pragma once
// Registry<"family", Base, Args...>: pluggable families (a2a backends, report writers, fidelities,
// ...) register a factory by name with a one-line description; `pdsim list` prints them. Adding a
// plug-in is one PDSIM_REGISTER in its own .cpp — no core enum changes. Every registration is also
// recorded by family name in the plug-in catalogue (plugin_catalog.hpp), so a reader in a lower
// layer (the scenario reader checking `fabric.fidelity`) can check a name without the family's
// type.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/plugin_catalog.hpp"

namespace pdsim {

// A string usable as a template argument: the family name of a registry.
template <size_t N>
struct FamilyName {
  constexpr FamilyName(const char (&s)[N]) { std::copy_n(s, N, value); }  // NOLINT: implicit
  char value[N];
};

template <FamilyName Family, class Base, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Base>(Args...)>;
  struct Entry {
    std::string name, description;
    Factory make;
  };
  static constexpr const char* family() { return Family.value; }

  static Registry& instance() {
    static Registry r;  // factories only: no simulation state lives here
    return r;
  }
  bool add(std::string name, std::string description, Factory f) {
    PluginCatalog::instance().add(family(), name, description);
    entries_[name] = Entry{name, std::move(description), std::move(f)};
    return true;
  }
  bool contains(const std::string& name) const { return entries_.count(name) > 0; }
  // Unknown names raise InputError naming `file`/`field` and listing the registered names.
  std::unique_ptr<Base> create(const std::string& name, const std::string& file,
                               const std::string& field, Args... args) const {
    auto it = entries_.find(name);
    if (it == entries_.end())
      throw InputError(file, field,
                       "unknown name '" + name + "' (expected one of: " + names() + ")");
    return it->second.make(std::forward<Args>(args)...);
  }
  std::vector<Entry> entries() const {
    std::vector<Entry> out;
    for (const auto& [k, v] : entries_) out.push_back(v);
    return out;
  }
  std::string names() const {
    std::string s;
    for (const auto& [k, v] : entries_) s += (s.empty() ? "" : ", ") + k;
    return s;
  }

 private:
  std::map<std::string, Entry> entries_;
};

}  // namespace pdsim

#define PDSIM_CONCAT_INNER(a, b) a##b
#define PDSIM_CONCAT(a, b) PDSIM_CONCAT_INNER(a, b)
// PDSIM_REGISTER(RegistryType, "name", "one-line description", factory-lambda). The variable is
// named by __COUNTER__, not __LINE__: in a unity batch two registrations on the same line of two
// files would otherwise collide.
#define PDSIM_REGISTER(REG, NAME, DESC, ...)                                                \
  namespace {                                                                               \
  [[maybe_unused]] const bool PDSIM_CONCAT(pdsim_registered_,                               \
                                           __COUNTER__) = REG::instance().add(NAME, DESC,   \
                                                                              __VA_ARGS__); \
  }

#pragma once
// Configuration that plug-ins declare in their own files. A family of plug-ins (the scenario's
// `tail` mechanisms) owns one JSON object; each plug-in registers its key there with its config
// type — a declared struct (fields.hpp) or one leaf value with its FieldSpec — and reads its
// typed config back by key:
//
//   struct GcPausesConfig { bool enabled = false; ...; template <class V> static void declare(V&);
//   }; PDSIM_CONFIG_SECTION("tail", "gc_pauses", GcPausesConfig, "Python gen-2 GC pauses ...")
//   ... e.d.scenario.tail.get<GcPausesConfig>("gc_pauses")
//
// A plug-in whose section reads in its own way (parameters from a profile file) registers a
// ConfigSection subclass with PDSIM_CONFIG_SECTION_CUSTOM. Adding a plug-in never edits the struct
// that holds the family.
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/fields.hpp"
#include "sim/core/registry.hpp"

namespace pdsim {

// One plug-in's section, type-erased.
class ConfigSection {
 public:
  virtual ~ConfigSection() = default;
  virtual std::unique_ptr<ConfigSection> fresh() const = 0;  // a new one with the defaults
  // `n` is the section's node; when the file has none (`given` false) an empty object at its
  // path, so that defaults are read and validated like a given section's.
  virtual void read(const JsonNode& n, bool given) = 0;
  virtual Json write() const = 0;
  virtual void list(const std::string& path, std::vector<FieldInfo>& out) const = 0;
  virtual const std::string& help() const = 0;
  // Inputs the last read() accepted but does not use (values under a profile's `from_profile`
  // that differ from the profile's), as messages naming `path`'s fields.
  virtual std::vector<std::string> ignored_inputs(const std::string& path) const {
    (void)path;
    return {};
  }
};

// A declared struct T as a section.
template <class T>
class DeclaredSection : public ConfigSection {
 public:
  explicit DeclaredSection(std::string help) : help_(std::move(help)) {}
  std::unique_ptr<ConfigSection> fresh() const override {
    return std::make_unique<DeclaredSection>(help_);
  }
  void read(const JsonNode& n, bool) override { read_fields(n, value); }
  Json write() const override { return write_fields(value); }
  void list(const std::string& path, std::vector<FieldInfo>& out) const override {
    out.push_back(
        {path, "object", FieldSpec{.help = help_.c_str()}, nullptr, {{"type", "object"}}, nullptr});
    for (auto& f : list_fields<T>(path)) out.push_back(std::move(f));
  }
  const std::string& help() const override { return help_; }
  T value{};

 private:
  std::string help_;
};

// One message "PATH.key = value has no effect: WHY" per member of the object `value` that is not
// in `skip` and differs from the same member of `defaults`.
std::vector<std::string> fields_without_effect(const Json& value, const Json& defaults,
                                               const std::string& path,
                                               const std::vector<std::string>& skip,
                                               const std::string& why);

// One leaf value (a switch) as a section: `tail.dp_imbalance: true`.
template <class T>
class LeafSection : public ConfigSection {
 public:
  LeafSection(T def, FieldSpec spec) : value(def), def_(def), spec_(std::move(spec)) {}
  std::unique_ptr<ConfigSection> fresh() const override {
    return std::make_unique<LeafSection>(def_, spec_);
  }
  void read(const JsonNode& n, bool given) override {
    if (given) value = FieldCodec<T>::read(n, spec_);
  }
  Json write() const override { return FieldCodec<T>::write(value, spec_); }
  void list(const std::string& path, std::vector<FieldInfo>& out) const override {
    out.push_back({path, FieldCodec<T>::type_name(), spec_, FieldCodec<T>::write(def_, spec_),
                   FieldCodec<T>::schema(spec_), &normalize_as<T>});
  }
  const std::string& help() const override { return help_; }
  T value;

 private:
  T def_;
  FieldSpec spec_;
  std::string help_ = spec_.help;
};

// The sections registered per family, as prototypes holding the defaults.
class SectionRegistry {
 public:
  static SectionRegistry& instance();
  bool add(const std::string& family, const std::string& key,
           std::unique_ptr<ConfigSection> prototype);
  // Registered keys of a family, in name order.
  std::vector<std::string> keys(const std::string& family) const;
  const ConfigSection* prototype(const std::string& family, const std::string& key) const;

 private:
  std::map<std::string, std::map<std::string, std::unique_ptr<ConfigSection>>> families_;
};

// The value a config holds for a family: every registered section, read or defaulted.
class ConfigSections {
 public:
  explicit ConfigSections(std::string family) : family_(std::move(family)) {}
  const std::string& family() const { return family_; }
  // Reads the family's object: unknown keys refused, every registered section read (absent
  // ones get their defaults, validated the same way).
  void read(const JsonNode& n);
  Json write() const;
  // Every registered section's fields (with their defaults) under `path`.
  void list(const std::string& path, std::vector<FieldInfo>& out) const;
  // Settings that change nothing: every field of a section switched off (`"enabled": false`)
  // whose value differs from the section's default, and each section's ignored_inputs(); one
  // message per field, named under `path`.
  std::vector<std::string> no_effect(const std::string& path) const;
  // The sections' ignored_inputs() alone.
  std::vector<std::string> ignored_inputs(const std::string& path) const;

  // The typed config of a section; std::logic_error for a key nobody registered with type T.
  template <class T>
  const T& get(std::string_view key) const {
    const ConfigSection* c = find(key);
    // Only the section kinds T can be: naming DeclaredSection<bool> would instantiate its
    // virtual members (clang does so eagerly), and a bool has no declare().
    if constexpr (detail::Declared<T>) {
      if (auto* d = dynamic_cast<const DeclaredSection<T>*>(c)) return d->value;
    } else {
      if (auto* l = dynamic_cast<const LeafSection<T>*>(c)) return l->value;
    }
    if constexpr (requires { T::kCustomSection; }) {
      if (auto* x = dynamic_cast<const T*>(c)) return *x;
    }
    throw std::logic_error(family_ + "." + std::string(key) +
                           ": no section of this type is registered");
  }

 private:
  const ConfigSection* find(std::string_view key) const;
  std::string family_;
  std::map<std::string, std::shared_ptr<const ConfigSection>, std::less<>> items_;
};

namespace detail {
template <class S>
void Reader<S>::sections(ConfigSections S::*m, const char* key, const FieldSpec&) {
  (obj.*m).read(n.has(key) ? n.at(key) : absent_section(n, key));  // its own keys checked there
}
template <class S>
void Writer<S>::sections(ConfigSections S::*m, const char* key, const FieldSpec&) {
  out[key] = (obj.*m).write();
}
template <class S>
void Lister<S>::sections(ConfigSections S::*m, const char* key, const FieldSpec& spec) {
  out.push_back({path(key), "object", spec, nullptr, {{"type", "object"}}, nullptr});
  (def.*m).list(path(key), out);
}
}  // namespace detail

}  // namespace pdsim

// PDSIM_CONFIG_SECTION("family", "key", DeclaredStruct, "one-line help")
#define PDSIM_CONFIG_SECTION(FAMILY, KEY, TYPE, HELP)                           \
  namespace {                                                                   \
  [[maybe_unused]] const bool PDSIM_CONCAT(pdsim_section_, __COUNTER__) =       \
      ::pdsim::SectionRegistry::instance().add(                                 \
          FAMILY, KEY, std::make_unique<::pdsim::DeclaredSection<TYPE>>(HELP)); \
  }
// PDSIM_CONFIG_LEAF("family", "key", type, default, FieldSpec{...})
#define PDSIM_CONFIG_LEAF(FAMILY, KEY, TYPE, DEFAULT, ...)                                  \
  namespace {                                                                               \
  [[maybe_unused]] const bool PDSIM_CONCAT(pdsim_section_, __COUNTER__) =                   \
      ::pdsim::SectionRegistry::instance().add(                                             \
          FAMILY, KEY, std::make_unique<::pdsim::LeafSection<TYPE>>(DEFAULT, __VA_ARGS__)); \
  }
// PDSIM_CONFIG_SECTION_CUSTOM("family", "key", ConfigSectionSubclass, constructor args...)
#define PDSIM_CONFIG_SECTION_CUSTOM(FAMILY, KEY, TYPE, ...)                                       \
  namespace {                                                                                     \
  [[maybe_unused]] const bool PDSIM_CONCAT(pdsim_section_, __COUNTER__) =                         \
      ::pdsim::SectionRegistry::instance().add(FAMILY, KEY, std::make_unique<TYPE>(__VA_ARGS__)); \
  }

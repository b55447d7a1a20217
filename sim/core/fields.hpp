#pragma once
// Declared configuration fields. A config struct holds plain members with their defaults and
// declares each one once, beside it:
//
//   struct WorkloadConfig {
//     int input_len = 1024;
//     template <class V> static void declare(V& v) {
//       v.field(&WorkloadConfig::input_len, "input_len",
//               {.help = "prompt tokens", .unit = "tokens", .min = 1,
//                .sglang = {.flag = "--random-input-len"}});
//     }
//     static void validate(WorkloadConfig&, const JsonNode&);  // optional: cross-field rules
//   };
//
// `v.section(&S::sub, "key", spec)` nests a declared struct as a JSON object; `v.sections(&S::m,
// "key", spec)` holds the sections plug-ins declare in their own files (config_sections.hpp).
// Everything else is a visitor over the declarations: read_fields (JSON → struct, unknown keys
// and ill-typed or out-of-range values refused with the file and field path), write_fields
// (struct → the resolved JSON), list_fields (one FieldInfo per leaf for `pdsim explain`, the
// generated field table and the JSON Schema) and visit_values (each leaf's value with its
// declaration, for the SGLang export and the fit).
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/core/field_codec.hpp"
#include "sim/core/field_spec.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

class ConfigSections;

// One declared field as tools list it: a leaf, or a section ("object") before its leaves.
struct FieldInfo {
  std::string path;  // "decode.speculative.num_steps"
  std::string type;  // "integer", "number", ..., "object" for a section
  FieldSpec spec;
  Json default_value;  // null when required or unset
  Json schema;         // JSON Schema of the value
  // Reads a value of this field's type and range (InputError at `n`) and writes it back
  // normalised: what the SGLang import and the fit check values with.
  Json (*normalize)(const JsonNode& n, const FieldSpec& spec) = nullptr;
  std::string range() const { return range_text(spec, type == "integer"); }
};

template <class T>
Json normalize_as(const JsonNode& n, const FieldSpec& spec) {
  return FieldCodec<T>::write(FieldCodec<T>::read(n, spec), spec);
}

namespace detail {

template <class S>
concept HasValidate = requires(S& s, const JsonNode& n) {
  S::validate(s, n);
};

// A node standing for an absent optional section: an empty object at the section's path, so
// that its defaults are read (and validated) like a given section's.
JsonNode absent_section(const JsonNode& parent, const std::string& key);

// Keys declared at one level (fields, sections), for expect_only.
struct KeyList {
  std::vector<std::string> keys;
  template <class S, class T>
  void field(T S::*, const char* key, const FieldSpec& = {}) {
    keys.emplace_back(key);
  }
  template <class S, class T>
  void section(T S::*, const char* key, const FieldSpec& = {}) {
    keys.emplace_back(key);
  }
  template <class S>
  void sections(ConfigSections S::*, const char* key, const FieldSpec& = {}) {
    keys.emplace_back(key);
  }
};

template <class S>
void read_into(const JsonNode& n, S& obj);
template <class S>
Json write_of(const S& obj);

// Reads one struct level (S is the struct the member pointers belong to).
template <class S>
struct Reader {
  const JsonNode& n;
  S& obj;
  template <class T>
  void field(T S::*m, const char* key, const FieldSpec& spec = {}) {
    if (spec.nullable) {
      if (n.has_nullable(key)) obj.*m = FieldCodec<T>::read(n.at(key), spec);
    } else if (n.has(key)) {
      obj.*m = FieldCodec<T>::read(n.at(key), spec);
    } else if (spec.required) {
      n.at(key);  // "missing required field", with the path
    }
  }
  template <class T>
  void section(T S::*m, const char* key, const FieldSpec& spec = {}) {
    if (n.has(key))
      read_into(n.at(key), obj.*m);
    else if (spec.required)
      n.at(key);
    else
      read_into(absent_section(n, key), obj.*m);
  }
  void sections(ConfigSections S::*m, const char* key, const FieldSpec& spec = {});
};

template <class S>
struct Writer {
  const S& obj;
  Json out = Json::object();
  template <class T>
  void field(T S::*m, const char* key, const FieldSpec& spec = {}) {
    if (spec.input_only) return;
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::string>) {
      // A nullable field that is not optional writes null for its default (its "unset").
      if (spec.nullable && obj.*m == S{}.*m) {
        out[key] = nullptr;
        return;
      }
    }
    out[key] = FieldCodec<T>::write(obj.*m, spec);
  }
  template <class T>
  void section(T S::*m, const char* key, const FieldSpec& = {}) {
    out[key] = write_of(obj.*m);
  }
  void sections(ConfigSections S::*m, const char* key, const FieldSpec& = {});
};

template <class S>
struct Lister {
  std::string prefix;
  std::vector<FieldInfo>& out;
  const S& def;
  std::string path(const char* key) const { return prefix.empty() ? key : prefix + "." + key; }
  template <class T>
  void field(T S::*m, const char* key, const FieldSpec& spec = {}) {
    Json d = spec.required ? Json(nullptr) : FieldCodec<T>::write(def.*m, spec);
    out.push_back({path(key), FieldCodec<T>::type_name(), spec, d, FieldCodec<T>::schema(spec),
                   &normalize_as<T>});
  }
  template <class T>
  void section(T S::*m, const char* key, const FieldSpec& = {});
  void sections(ConfigSections S::*m, const char* key, const FieldSpec& spec = {});
};

template <class S>
void read_into(const JsonNode& n, S& obj) {
  KeyList k;
  S::declare(k);
  n.expect_only(k.keys);
  Reader<S> r{n, obj};
  S::declare(r);
  if constexpr (HasValidate<S>) S::validate(obj, n);
}

template <class S>
Json write_of(const S& obj) {
  Writer<S> w{obj};
  S::declare(w);
  return w.out;
}

}  // namespace detail

// JSON → a declared struct: defaults for what is absent, then the struct's validate().
template <class S>
S read_fields(const JsonNode& n) {
  S obj{};
  detail::read_into(n, obj);
  return obj;
}
template <class S>
void read_fields(const JsonNode& n, S& obj) {
  detail::read_into(n, obj);
}

// A declared struct → JSON with every declared field (the resolved form).
template <class S>
Json write_fields(const S& obj) {
  return detail::write_of(obj);
}

// Every declared leaf of S, paths under `prefix`, defaults of a default-constructed S.
template <class S>
std::vector<FieldInfo> list_fields(const std::string& prefix = "") {
  std::vector<FieldInfo> out;
  const S def{};
  detail::Lister<S> l{prefix, out, def};
  S::declare(l);
  return out;
}

template <class S>
template <class T>
void detail::Lister<S>::section(T S::*m, const char* key, const FieldSpec& spec) {
  out.push_back({path(key), "object", spec, nullptr, {{"type", "object"}}, nullptr});
  detail::Lister<T> l{path(key), out, def.*m};
  T::declare(l);
}

namespace detail {
template <class T>
concept Declared = requires(KeyList& k) {
  T::declare(k);
};
}  // namespace detail

// A declared struct as a value: a list element or an optional part (results.hpp's records).
template <detail::Declared T>
struct FieldCodec<T> {
  static T read(const JsonNode& n, const FieldSpec&) { return read_fields<T>(n); }
  static Json write(const T& v, const FieldSpec&) { return write_fields(v); }
  static const char* type_name() { return "object"; }
  static Json schema(const FieldSpec&) { return {{"type", "object"}}; }
};

template <detail::Declared T>
struct FieldCodec<std::vector<T>> {
  static std::vector<T> read(const JsonNode& n, const FieldSpec&) {
    if (!n.is_array())
      n.fail(std::string("expected an array of objects, got ") + n.raw().type_name());
    std::vector<T> out;
    out.reserve(n.size());
    for (size_t i = 0; i < n.size(); ++i) out.push_back(read_fields<T>(n.at(i)));
    return out;
  }
  static Json write(const std::vector<T>& v, const FieldSpec&) {
    Json out = Json::array();
    for (const T& x : v) out.push_back(write_fields(x));
    return out;
  }
  static const char* type_name() { return "array of objects"; }
  static Json schema(const FieldSpec&) { return {{"type", "array"}}; }
};

}  // namespace pdsim

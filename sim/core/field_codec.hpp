#pragma once
// FieldCodec<T>: how a value of type T is read from JSON (with the field's declared range, and
// one InputError naming the file and field path when it is wrong), written back, named for
// people ("integer") and described as JSON Schema. A type becomes a field type by specialising
// FieldCodec next to the type (models/kv_dtype.hpp does it for KvDtype); fields.hpp visits the
// declared fields with these.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/field_spec.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

template <class T>
struct FieldCodec;  // specialise to make T a field type

template <>
struct FieldCodec<bool> {
  static bool read(const JsonNode& n, const FieldSpec&) { return n.boolean(); }
  static Json write(bool v, const FieldSpec&) { return v; }
  static const char* type_name() { return "boolean"; }
  static Json schema(const FieldSpec&) { return {{"type", "boolean"}}; }
};

// Integers are bounded to [min, max] with max at most 2^30 (a count or size; wider values are
// refused by name instead of narrowed).
template <>
struct FieldCodec<int> {
  static int read(const JsonNode& n, const FieldSpec& s);
  static Json write(int v, const FieldSpec&) { return v; }
  static const char* type_name() { return "integer"; }
  static Json schema(const FieldSpec& s);
};

// Seeds and hashes: 0 .. 2^63 - 1.
template <>
struct FieldCodec<uint64_t> {
  static uint64_t read(const JsonNode& n, const FieldSpec& s);
  static Json write(uint64_t v, const FieldSpec&) { return v; }
  static const char* type_name() { return "integer"; }
  static Json schema(const FieldSpec&) { return {{"type", "integer"}, {"minimum", 0}}; }
};

template <>
struct FieldCodec<double> {
  static double read(const JsonNode& n, const FieldSpec& s);
  static Json write(double v, const FieldSpec& s);
  static const char* type_name() { return "number"; }
  static Json schema(const FieldSpec& s);
};

template <>
struct FieldCodec<std::string> {
  static std::string read(const JsonNode& n, const FieldSpec& s);
  static Json write(const std::string& v, const FieldSpec&) { return v; }
  static const char* type_name() { return "string"; }
  static Json schema(const FieldSpec& s);
};

template <>
struct FieldCodec<std::vector<int>> {
  static std::vector<int> read(const JsonNode& n, const FieldSpec& s);
  static Json write(const std::vector<int>& v, const FieldSpec&) { return v; }
  static const char* type_name() { return "array of integers"; }
  static Json schema(const FieldSpec& s);
};

template <>
struct FieldCodec<std::vector<double>> {
  static std::vector<double> read(const JsonNode& n, const FieldSpec& s);
  static Json write(const std::vector<double>& v, const FieldSpec&) { return v; }
  static const char* type_name() { return "array of numbers"; }
  static Json schema(const FieldSpec&) {
    return {{"type", "array"}, {"items", {{"type", "number"}}}};
  }
};

template <>
struct FieldCodec<std::vector<std::string>> {
  static std::vector<std::string> read(const JsonNode& n, const FieldSpec& s);
  static Json write(const std::vector<std::string>& v, const FieldSpec&) { return v; }
  static const char* type_name() { return "array of strings"; }
  static Json schema(const FieldSpec&) {
    return {{"type", "array"}, {"items", {{"type", "string"}}}};
  }
};

// Unset or a value: for fields declared `nullable` (null in JSON).
template <class T>
struct FieldCodec<std::optional<T>> {
  static std::optional<T> read(const JsonNode& n, const FieldSpec& s) {
    return FieldCodec<T>::read(n, s);
  }
  static Json write(const std::optional<T>& v, const FieldSpec& s) {
    return v ? FieldCodec<T>::write(*v, s) : Json(nullptr);
  }
  static const char* type_name() { return FieldCodec<T>::type_name(); }
  static Json schema(const FieldSpec& s) { return FieldCodec<T>::schema(s); }
};

// A `provenance` object (sim/core/provenance.hpp): free-form, its well-known members text. Json
// is a field type only for provenance; null means none given.
template <>
struct FieldCodec<Json> {
  static Json read(const JsonNode& n, const FieldSpec& s);
  static Json write(const Json& v, const FieldSpec&) { return v; }
  static const char* type_name() { return "provenance object"; }
  static Json schema(const FieldSpec&) { return {{"type", "object"}}; }
};

// The declared range in words ("integer >= 1", "one of a, b"), "" when unbounded.
std::string range_text(const FieldSpec& s, bool integer);
// The declared `max`, or for a field in a time unit without one, kMaxTimeS in that unit
// (sim/core/time_bound.hpp).
std::optional<double> upper_bound(const FieldSpec& s);

}  // namespace pdsim

#pragma once
// The KV-cache element type (SGLang --kv-cache-dtype): its one parser and its one name, and the
// field type of scenario fields that hold one.
#include "sim/core/field_codec.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

enum class KvDtype { bf16, fp8 };

KvDtype parse_kv_dtype(const JsonNode& node);  // "bf16" | "fp8", else InputError at node
const char* kv_dtype_name(KvDtype d);

template <>
struct FieldCodec<KvDtype> {
  static KvDtype read(const JsonNode& n, const FieldSpec&) { return parse_kv_dtype(n); }
  static Json write(KvDtype v, const FieldSpec&) { return kv_dtype_name(v); }
  static const char* type_name() { return "string"; }
  static Json schema(const FieldSpec&) { return {{"type", "string"}, {"enum", {"bf16", "fp8"}}}; }
};

}  // namespace pdsim

#pragma once
// The KV-cache element type (SGLang --kv-cache-dtype): its one parser and its one name.
#include "sim/core/json_reader.hpp"

namespace pdsim {

enum class KvDtype { bf16, fp8 };

KvDtype parse_kv_dtype(const JsonNode& node);  // "bf16" | "fp8", else InputError at node
const char* kv_dtype_name(KvDtype d);

}  // namespace pdsim

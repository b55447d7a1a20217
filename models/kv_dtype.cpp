#include "models/kv_dtype.hpp"

#include "sim/core/excerpt.hpp"

namespace pdsim {

KvDtype parse_kv_dtype(const JsonNode& node) {
  std::string s = node.string();
  if (s == "bf16") return KvDtype::bf16;
  if (s == "fp8") return KvDtype::fp8;
  node.fail("expected one of bf16, fp8, got \"" + excerpt(s) + "\"");
}

const char* kv_dtype_name(KvDtype d) {
  return d == KvDtype::fp8 ? "fp8" : "bf16";
}

}  // namespace pdsim

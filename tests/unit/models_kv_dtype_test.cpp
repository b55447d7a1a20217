// The KV-cache dtype's one parser and name.
#include <gtest/gtest.h>

#include "models/kv_dtype.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

KvDtype parse(const Json& j) {
  return parse_kv_dtype(JsonNode::from_json(Json{{"d", j}}, "s.json").at("d"));
}

TEST(KvDtype, ParsesTheTwoNamesAndRejectsOthersWithTheFieldPath) {
  EXPECT_EQ(parse("fp8"), KvDtype::fp8);
  EXPECT_EQ(parse("bf16"), KvDtype::bf16);
  EXPECT_STREQ(kv_dtype_name(KvDtype::fp8), "fp8");
  EXPECT_STREQ(kv_dtype_name(KvDtype::bf16), "bf16");
  try {
    parse("fp8_e5m2");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.json: field 'd': expected one of bf16, fp8, got \"fp8_e5m2\"");
  }
  EXPECT_THROW(parse(8), InputError);
}

}  // namespace
}  // namespace pdsim

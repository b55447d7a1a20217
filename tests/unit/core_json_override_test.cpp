#include <gtest/gtest.h>

#include <functional>

#include "sim/core/error.hpp"
#include "sim/core/json_override.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

TEST(JsonOverride, SetsObjectMembersAndArrayElements) {
  Json d = Json::parse(R"({"a":{"b":[{"c":1},{"c":2},{"c":3}]},"x":"s"})");
  apply_json_override(d, "a.b[2].c=7", "f.json");
  apply_json_override(d, "x=word", "f.json");            // bare word → string
  apply_json_override(d, "a.b[0]={\"c\":9}", "f.json");  // JSON value
  EXPECT_EQ(d["a"]["b"][2]["c"], 7);
  EXPECT_EQ(d["x"], "word");
  EXPECT_EQ(d["a"]["b"][0]["c"], 9);
  ASSERT_NE(find_json_path(d, "a.b[1].c"), nullptr);
  EXPECT_EQ(*find_json_path(d, "a.b[1].c"), 2);
  EXPECT_EQ(find_json_path(d, "a.b[3].c"), nullptr);
  EXPECT_EQ(find_json_path(d, "a.q"), nullptr);
}

TEST(JsonOverride, UnknownPathsNameFileAndPath) {
  Json d = Json::parse(R"({"a":{"b":[1,2]}})");
  std::string m = testing::input_error_of(
      [&] { apply_json_override(d, "a.q=1", "f.json", {.what = "scenario path"}); });
  EXPECT_NE(m.find("f.json: field 'a.q': unknown scenario path (no field 'q')"), std::string::npos)
      << m;
  m = testing::input_error_of([&] { apply_json_override(d, "a.b[5]=1", "f.json"); });
  EXPECT_NE(m.find("field 'a.b[5]'"), std::string::npos) << m;
  m = testing::input_error_of([&] { apply_json_override(d, "a.b[x]=1", "f.json"); });
  EXPECT_NE(m.find("expected an array index"), std::string::npos) << m;
  m = testing::input_error_of([&] { apply_json_override(d, "a..b=1", "f.json"); });
  EXPECT_NE(m.find("empty key"), std::string::npos) << m;
  m = testing::input_error_of([&] { apply_json_override(d, "a.b[1=1", "f.json"); });
  EXPECT_NE(m.find("unterminated"), std::string::npos) << m;
  m = testing::input_error_of([&] { apply_json_override(d, "novalue", "f.json"); });
  EXPECT_NE(m.find("expected dotted.path=value"), std::string::npos) << m;
}

TEST(JsonOverride, CreateMissingMakesIntermediateObjects) {
  Json d = Json::object();
  apply_json_override(d, "t.srd.paths=8", "f.json", {.create_missing = true});
  EXPECT_EQ(d["t"]["srd"]["paths"], 8);
  // Array elements are never created.
  EXPECT_FALSE(testing::input_error_of([&] {
                 apply_json_override(d, "w[0].x=1", "f.json", {.create_missing = true});
               }).empty());
}

}  // namespace
}  // namespace pdsim

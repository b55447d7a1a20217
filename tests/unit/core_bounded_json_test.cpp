// parse_json, the one JSON parser of pdsim's inputs: nesting is bounded (a depth bomb is an
// InputError, not a stack overflow), a repeated key is an error naming its path, and a syntax
// error quotes the offending token cut short.
#include <gtest/gtest.h>

#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_override.hpp"

namespace pdsim {
namespace {

std::string nested_arrays(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

std::string error_of(std::string_view text, const std::string& field = "") {
  try {
    parse_json(text, "f.json", field);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(BoundedJson, ParsesLikeNlohmann) {
  const std::string text =
      R"({"a": [1, 2.5, -3, "s", true, null, {"b": {}}], "c": 18446744073709551615})";
  EXPECT_EQ(parse_json(text, "f.json"), Json::parse(text));
  EXPECT_EQ(parse_json("7", "f.json"), 7);
}

TEST(BoundedJson, AcceptsTheDepthLimitAndRejectsOneMore) {
  EXPECT_EQ(kMaxJsonDepth, 128u);
  EXPECT_NO_THROW(parse_json(nested_arrays(128), "f.json"));
  std::string path;
  for (int i = 0; i < 80; ++i) path += "[0]";  // 240 bytes shown of 128 × "[0]"
  EXPECT_EQ(error_of(nested_arrays(129)),
            "f.json: field '" + path +
                "\xe2\x80\xa6 (384 bytes)': expected JSON nested at most 128 levels deep (objects "
                "and arrays)");
}

TEST(BoundedJson, DepthBombOfAMillionLevelsIsAnInputError) {
  // Before: SIGSEGV in the recursive destructor/dump. The parser stops at level 129.
  const std::string bomb = R"({"provenance": {"note": )" + std::string(1000000, '[');
  std::string path = "provenance.note";  // then 126 arrays: 393 bytes, 240 shown
  for (int i = 0; i < 126; ++i) path += "[0]";
  EXPECT_EQ(error_of(bomb, "line 1"),
            "f.json: field 'line 1: " + path.substr(0, 240) +
                "\xe2\x80\xa6 (393 bytes)': expected JSON nested at most 128 levels deep "
                "(objects and arrays)");
}

TEST(BoundedJson, DuplicateKeysAreRejectedWithTheirPath) {
  EXPECT_EQ(error_of(R"({"seed": 1, "seed": 2})"),
            "f.json: field 'seed': duplicate key (each key may appear once per object; which "
            "value was meant is ambiguous)");
  EXPECT_EQ(error_of(R"({"a": [{"x": 1}, {"y": {"z": 1, "z": 1}}]})"),
            "f.json: field 'a[1].y.z': duplicate key (each key may appear once per object; which "
            "value was meant is ambiguous)");
  EXPECT_NO_THROW(parse_json(R"({"a": {"k": 1}, "b": {"k": 1}})", "f.json"));
}

TEST(BoundedJson, SyntaxErrorsAreJsonSyntaxErrorsWithTheTokenCut) {
  EXPECT_THROW(parse_json("{", "f.json"), JsonSyntaxError);
  EXPECT_THROW(parse_json("", "f.json"), JsonSyntaxError);
  EXPECT_THROW(parse_json("{} x", "f.json"), JsonSyntaxError);
  // A 10 MB string with a control character: nlohmann's message quotes the whole token (with
  // the control character spelled <U+0001>: 10000009 bytes).
  const std::string big = "{\"model\": \"" + std::string(10000000, 'a') + "\x01\"}";
  const std::string m = error_of(big);
  EXPECT_EQ(m,
            "f.json: expected valid JSON: [json.exception.parse_error.101] parse error at line 1, "
            "column 10000012: syntax error while parsing value - invalid string: control character "
            "U+0001 (SOH) must be escaped to \\u0001; last read: '\"" +
                std::string(79, 'a') + "\xe2\x80\xa6 (10000009 bytes)'");
}

TEST(BoundedJson, SetValuesAreParsedByItToo) {
  Json d = {{"a", 1}};
  apply_json_override(d, "a=[1,", "f.json");  // not JSON: a bare word, a string
  EXPECT_EQ(d["a"], "[1,");
  try {
    apply_json_override(d, "a=" + nested_arrays(200), "f.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 35), "f.json: field 'a: [0][0][0][0][0][0");
  }
  try {
    apply_json_override(d, R"(a={"k": 1, "k": 2})", "f.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "f.json: field 'a: k': duplicate key (each key may appear once per object; "
                 "which value was meant is ambiguous)");
  }
}

}  // namespace
}  // namespace pdsim

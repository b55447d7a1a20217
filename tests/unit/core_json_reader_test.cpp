// JsonNode: null is never "use the default"; keys from the file are cut short in messages;
// provenance members documented as text must be strings.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/core/provenance.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

JsonNode doc(const std::string& text) {
  return JsonNode::from_json(Json::parse(text), "s.json");
}

constexpr const char* kNull =
    "s.json: field 'workload.request_rate': null is not allowed; omit the field to use its "
    "default";

TEST(JsonReaderNull, EveryAccessorRejectsAPresentNull) {
  const JsonNode w = doc(R"({"workload": {"request_rate": null}})").at("workload");
  EXPECT_EQ(testing::input_error_of([&] { w.has("request_rate"); }), kNull);
  EXPECT_EQ(testing::input_error_of([&] { w.at("request_rate"); }), kNull);
  EXPECT_EQ(testing::input_error_of([&] { w.num_or("request_rate", 1.0); }), kNull);
  EXPECT_EQ(testing::input_error_of([&] { w.int_or("request_rate", 1); }), kNull);
  EXPECT_EQ(testing::input_error_of([&] { w.str_or("request_rate", "inf"); }), kNull);
  EXPECT_EQ(testing::input_error_of([&] { w.bool_or("request_rate", true); }), kNull);
  EXPECT_EQ(testing::input_error_of([&] { w.num("request_rate"); }), kNull);
  // Absent stays absent.
  EXPECT_FALSE(w.has("num_prompts"));
  EXPECT_EQ(w.num_or("num_prompts", 3.0), 3.0);
}

TEST(JsonReaderNull, NullableFieldsReadNullAsUnset) {
  const JsonNode w = doc(R"({"max_concurrency": null, "b": 4})");
  EXPECT_FALSE(w.has_nullable("max_concurrency"));
  EXPECT_FALSE(w.has_nullable("absent"));
  EXPECT_TRUE(w.has_nullable("b"));
}

TEST(JsonReaderInteger, FloatsOutsideInt64AreInputErrorsNotCasts) {
  // Found by the scenario fuzzer (UBSan: 1e+28 outside the range of long).
  const JsonNode n = doc(R"({"a": 1e28, "b": -1e19, "c": 4.0, "d": 2.5})");
  EXPECT_EQ(testing::input_error_of([&] { n.at("a").integer(); }),
            "s.json: field 'a': expected an integer, got 1e+28");
  EXPECT_EQ(testing::input_error_of([&] { n.at("b").integer(); }),
            "s.json: field 'b': expected an integer, got -1e+19");
  EXPECT_EQ(n.at("c").integer(), 4);
  EXPECT_EQ(testing::input_error_of([&] { n.at("d").integer(); }),
            "s.json: field 'd': expected an integer, got 2.5");
}

TEST(JsonReaderInteger, UnsignedAbove2To63IsRefusedNotWrapped) {
  // 2^64-1 used to wrap to -1 and be reported as "got -1"; 2^63-1 is the largest accepted.
  const JsonNode n =
      doc(R"({"a": 18446744073709551615, "b": 9223372036854775808, "c": 9223372036854775807})");
  EXPECT_EQ(testing::input_error_of([&] { n.at("a").positive_integer(); }),
            "s.json: field 'a': expected an integer below 2^63, got 18446744073709551615");
  EXPECT_EQ(testing::input_error_of([&] { n.at("b").integer(); }),
            "s.json: field 'b': expected an integer below 2^63, got 9223372036854775808");
  EXPECT_EQ(n.at("c").integer(), INT64_MAX);
  // Seeds and hashes (the packet oracle's per-layer seeds) take the whole unsigned range.
  EXPECT_EQ(n.at("a").unsigned_integer(), UINT64_MAX);
  EXPECT_EQ(n.at("c").unsigned_integer(), uint64_t{INT64_MAX});
  EXPECT_EQ(testing::input_error_of([&] { doc(R"({"s": -1})").at("s").unsigned_integer(); }),
            "s.json: field 's': expected a non-negative integer, got -1");
}

TEST(JsonReaderNull, UnknownLongKeysAreCutInMessages) {
  const JsonNode n = JsonNode::from_json(Json{{std::string(1000000, 'k'), 1}}, "s.json");
  EXPECT_EQ(testing::input_error_of([&] { n.expect_only({"model"}); }),
            "s.json: field '" + std::string(40, 'k') +
                "\xe2\x80\xa6 (1000000 bytes)': unknown field (expected one of: model)");
}

TEST(Provenance, WellKnownMembersMustBeStrings) {
  EXPECT_EQ(read_provenance(doc(R"({"p": {"source": "x", "runs": [1], "seed": 3}})").at("p")),
            Json::parse(R"({"source": "x", "runs": [1], "seed": 3})"));
  EXPECT_EQ(
      testing::input_error_of([&] { read_provenance(doc(R"({"p": {"source": 5}})").at("p")); }),
      "s.json: field 'p.source': expected a string, got number");
  EXPECT_EQ(testing::input_error_of(
                [&] { read_provenance(doc(R"({"p": {"note": {"a": 1}}})").at("p")); }),
            "s.json: field 'p.note': expected a string, got object");
  EXPECT_EQ(testing::input_error_of([&] { read_provenance(doc(R"({"p": "measured"})").at("p")); }),
            "s.json: field 'p': expected an object (where the numbers come from), got string");
}

}  // namespace
}  // namespace pdsim

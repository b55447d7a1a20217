#include "sim/core/time_bound.hpp"

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/core/field_codec.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {
namespace time_bound_test {

TEST(TimeBound, KeysNameTheirTimeUnit) {
  EXPECT_EQ(key_time_unit("host_us_per_chunk"), "us");
  EXPECT_EQ(key_time_unit("p99_ttft_ms"), "ms");
  EXPECT_EQ(key_time_unit("arrival_s"), "s");
  EXPECT_EQ(key_time_unit("decode.host_us_per_iteration"), "us");  // a path: its last key
  EXPECT_EQ(key_time_unit("line 2: mean_itl_ms"), "ms");
  EXPECT_EQ(key_time_unit("chunk_times_s[3]"), "s");
  EXPECT_EQ(key_time_unit("gap_ps"), "ps");
  // Rates and other units are not times.
  EXPECT_EQ(key_time_unit("tokens_per_s"), std::nullopt);
  EXPECT_EQ(key_time_unit("per_link_per_hour"), std::nullopt);
  EXPECT_EQ(key_time_unit("busbw_GBps"), std::nullopt);
  EXPECT_EQ(key_time_unit("duration"), std::nullopt);
  EXPECT_EQ(key_time_unit("sms"), std::nullopt);
  EXPECT_EQ(key_time_unit("us.x"), std::nullopt);  // only the last key counts
}

TEST(TimeBound, CapInEachUnit) {
  // kMaxTimeS = 1e6 s: 1e9 ms, 1e12 us.
  EXPECT_TRUE(time_within(1e6, "s", kMaxTimeS));
  EXPECT_FALSE(time_within(1.000001e6, "s", kMaxTimeS));
  EXPECT_TRUE(time_within(-1e9, "ms", kMaxTimeS));  // magnitude: deltas may be negative
  EXPECT_FALSE(time_within(1.1e12, "us", kMaxTimeS));
  EXPECT_FALSE(time_within(std::nan(""), "us", kMaxTimeS));
  EXPECT_EQ(time_cap_text("ms", kMaxTimeS), "a time of at most 1e+09 ms (1e+06 s)");
}

std::string error_reading(const Json& doc, const std::string& key) {
  try {
    JsonNode::from_json(doc, "f.json").at(key).number();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TimeBound, EveryTimeNamedNumberIsBounded) {
  EXPECT_EQ(error_reading({{"delay_us", 1e200}}, "delay_us"),
            "f.json: field 'delay_us': expected a time of at most 1e+12 us (1e+06 s), got 1e+200 "
            "us");
  EXPECT_EQ(error_reading({{"delay_us", 1e12}}, "delay_us"), "");  // the cap itself is fine
  EXPECT_EQ(error_reading({{"rate", 1e200}}, "rate"), "");         // not a time: no cap here
  // Integers too: 2^62 picoseconds is 4.6e6 s.
  EXPECT_THROW(JsonNode::from_json({{"gap_ps", int64_t{1} << 62}}, "f").at("gap_ps").integer(),
               InputError);
}

TEST(TimeBound, DeclaredTimeFieldsCarryTheCapOrTheirOwnMax) {
  EXPECT_EQ(upper_bound(FieldSpec{.unit = "ms", .min = 0}), 1e9);
  EXPECT_EQ(upper_bound(FieldSpec{.unit = "us", .min = 0, .max = 5.0}), 5.0);
  EXPECT_EQ(upper_bound(FieldSpec{.unit = "tokens", .min = 0}), std::nullopt);
  EXPECT_EQ(range_text(FieldSpec{.unit = "s", .min = 0}, false), "in [0, 1000000]");
}

}  // namespace time_bound_test
}  // namespace pdsim

// Declared fields (sim/core/fields.hpp, config_sections.hpp): one declaration gives the reader
// with field-path errors, the resolved form, the listing and the plug-in sections.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sim/core/config_sections.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

struct Inner {
  int steps = 3;
  std::optional<double> p;
  template <class V>
  static void declare(V& v) {
    v.field(&Inner::steps, "steps", {.help = "steps", .min = 1});
    v.field(&Inner::p, "p", {.min = 0, .max = 1, .nullable = true});
  }
};

struct Outer {
  std::string name;
  double rate = std::numeric_limits<double>::infinity();
  int limit = 0;
  std::vector<int> sizes;
  Inner inner;
  ConfigSections extra{"test.fields"};
  template <class V>
  static void declare(V& v) {
    v.field(&Outer::name, "name", {.required = true});
    v.field(&Outer::rate, "rate", {.unit = "1/s", .min = 0, .above_min = true, .inf_ok = true});
    v.field(&Outer::limit, "limit", {.min = 0, .nullable = true});
    v.field(&Outer::sizes, "sizes", {.min = 1});
    v.section(&Outer::inner, "inner");
    v.sections(&Outer::extra, "extra");
  }
  static void validate(Outer& o, const JsonNode& n) {
    if (o.limit > 100) n.at("limit").fail("expected at most 100");
  }
};

struct Knob {
  double gain = 2;
  template <class V>
  static void declare(V& v) {
    v.field(&Knob::gain, "gain", {.help = "gain", .min = 0});
  }
};

PDSIM_CONFIG_SECTION("test.fields", "knob", Knob, "a test knob")
PDSIM_CONFIG_LEAF("test.fields", "on", bool, true, FieldSpec{.help = "a switch"})

Outer read_outer(const Json& j) {
  return read_fields<Outer>(JsonNode::from_json(j, "t.json"));
}
std::string field_error(const Json& j) {
  try {
    read_outer(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Fields, DefaultsFillWhatIsAbsentAndWriteBackEveryField) {
  const Outer o = read_outer({{"name", "x"}});
  EXPECT_TRUE(std::isinf(o.rate));
  EXPECT_EQ(o.inner.steps, 3);
  EXPECT_DOUBLE_EQ(o.extra.get<Knob>("knob").gain, 2.0);
  EXPECT_TRUE(o.extra.get<bool>("on"));
  const Json expected = {{"name", "x"},
                         {"rate", "inf"},
                         {"limit", nullptr},  // nullable: the default is written as null
                         {"sizes", Json::array()},
                         {"inner", {{"steps", 3}, {"p", nullptr}}},
                         {"extra", {{"knob", {{"gain", 2.0}}}, {"on", true}}}};
  EXPECT_EQ(write_fields(o), expected);
  // The written form reads back to the same values.
  EXPECT_EQ(write_fields(read_outer(expected)), expected);
}

TEST(Fields, ValuesAreReadWithTheirTypeAndRange) {
  const Outer o = read_outer({{"name", "x"},
                              {"rate", 0.5},
                              {"limit", 7},
                              {"sizes", {1, 2, 4}},
                              {"inner", {{"p", 0.25}}},
                              {"extra", {{"knob", {{"gain", 0.5}}}, {"on", false}}}});
  EXPECT_DOUBLE_EQ(o.rate, 0.5);
  EXPECT_EQ(o.limit, 7);
  EXPECT_EQ(o.sizes, (std::vector<int>{1, 2, 4}));
  EXPECT_DOUBLE_EQ(*o.inner.p, 0.25);
  EXPECT_DOUBLE_EQ(o.extra.get<Knob>("knob").gain, 0.5);
  EXPECT_FALSE(o.extra.get<bool>("on"));
}

TEST(Fields, BadValuesNameTheFileAndFieldPath) {
  EXPECT_EQ(field_error(Json::object()), "t.json: field 'name': missing required field");
  EXPECT_EQ(field_error({{"name", "x"}, {"rate", 0}}),
            "t.json: field 'rate': expected a positive number, got 0");
  EXPECT_EQ(field_error({{"name", "x"}, {"rate", "fast"}}),
            "t.json: field 'rate': expected a positive number or \"inf\", got \"fast\"");
  EXPECT_EQ(field_error({{"name", "x"}, {"sizes", {1, 0}}}),
            "t.json: field 'sizes[1]': expected a positive integer, got 0");
  EXPECT_EQ(field_error({{"name", "x"}, {"inner", {{"p", 1.5}}}}),
            "t.json: field 'inner.p': expected a number in [0, 1], got 1.5");
  EXPECT_EQ(field_error({{"name", "x"}, {"inner", {{"step", 2}}}}),
            "t.json: field 'inner.step': unknown field (expected one of: steps, p)");
  EXPECT_EQ(field_error({{"name", "x"}, {"extra", {{"knob", {{"gain", -1}}}}}}),
            "t.json: field 'extra.knob.gain': expected a non-negative number, got -1");
  EXPECT_EQ(field_error({{"name", "x"}, {"extra", {{"knobs", 1}}}}),
            "t.json: field 'extra.knobs': unknown field (expected one of: knob, on)");
  EXPECT_EQ(field_error({{"name", "x"}, {"limit", 101}}),
            "t.json: field 'limit': expected at most 100");
  EXPECT_EQ(field_error({{"name", "x"}, {"limit", int64_t{1} << 31}}),
            "t.json: field 'limit': expected an integer below 2^30, got 2147483648");
}

struct Series {
  std::vector<double> times_s;
  std::vector<int> counts;
  template <class V>
  static void declare(V& v) {
    v.field(&Series::times_s, "times_s", {.unit = "s"});
    v.field(&Series::counts, "counts", {.min = 0});
  }
};

// Arrays are checked element by element without a JsonNode per element (sim/core/field_codec):
// the same values pass, and a bad element gets the same message with its index.
TEST(Fields, ArrayElementsKeepTheirChecksAndMessages) {
  auto read = [](const Json& j) { return read_fields<Series>(JsonNode::from_json(j, "s.json")); };
  auto error = [&](const Json& j) {
    try {
      read(j);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // Unsigned (as CBOR decodes positive integers), signed and integral floats.
  Json ok = {{"times_s", {0.5, -1.0, 1e6}}, {"counts", {Json(uint64_t{3}), 0, 2.0}}};
  const Series s = read(ok);
  EXPECT_EQ(s.times_s, (std::vector<double>{0.5, -1.0, 1e6}));
  EXPECT_EQ(s.counts, (std::vector<int>{3, 0, 2}));
  EXPECT_EQ(error({{"times_s", {0.5, 2e6}}}),
            "s.json: field 'times_s[1]': expected a time of at most 1e+06 s (1e+06 s), got "
            "2000000.0 s");
  EXPECT_EQ(error({{"times_s", {0.5, "x"}}}),
            "s.json: field 'times_s[1]': expected a number, got string");
  EXPECT_EQ(error({{"counts", {1, -1}}}),
            "s.json: field 'counts[1]': expected a non-negative integer, got -1");
  EXPECT_EQ(error({{"counts", {1, 1.5}}}),
            "s.json: field 'counts[1]': expected an integer, got 1.5");
  EXPECT_EQ(error({{"counts", {Json(uint64_t{1} << 40)}}}),
            "s.json: field 'counts[0]': expected an integer below 2^30, got 1099511627776");
}

TEST(Fields, ListingGivesEveryLeafAndSectionWithItsDeclaration) {
  const std::vector<FieldInfo> f = list_fields<Outer>();
  std::vector<std::string> paths;
  for (const auto& x : f) paths.push_back(x.path + ":" + x.type);
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "name:string", "rate:number", "limit:integer", "sizes:array of integers",
                       "inner:object", "inner.steps:integer", "inner.p:number", "extra:object",
                       "extra.knob:object", "extra.knob.gain:number", "extra.on:boolean"}));
  EXPECT_EQ(f[1].range(), "> 0, or \"inf\"");
  EXPECT_EQ(f[1].default_value, "inf");
  EXPECT_EQ(f[5].range(), ">= 1");
  EXPECT_EQ(f[6].range(), "in [0, 1]");
  EXPECT_EQ(f[9].default_value, 2.0);
  // The normaliser checks a value as the reader would.
  EXPECT_EQ(f[5].normalize(JsonNode::from_json(4, "flag"), f[5].spec), 4);
  EXPECT_THROW(f[5].normalize(JsonNode::from_json(0, "flag"), f[5].spec), InputError);
}

}  // namespace
}  // namespace pdsim

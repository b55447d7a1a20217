#include <gtest/gtest.h>

#include <set>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/sweep/shard.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace pdsim {
namespace {

SweepSpec parse(const std::string& text) {
  return parse_sweep(JsonNode::from_json(Json::parse(text), "s.json"), data_root() + "/scenarios");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepSpec, GridIsCartesianProductInCanonicalOrder) {
  // list (2 entries) × grid keys sorted by path, the last one fastest: 2 × 2 × 3 = 12 points.
  SweepSpec s = parse(R"({"base": "glm51-2p2d-efa-quick.json",
    "list": [{}, {"decode.speculative.algorithm": "none"}],
    "grid": {"workload.request_rate": [0.5, 1, 2], "prefill.chunked_prefill_size": [8192, 16384]}})");
  ASSERT_EQ(s.points.size(), 12u);
  EXPECT_EQ(s.points[0].overrides,
            Json::parse(R"({"prefill.chunked_prefill_size": 8192, "workload.request_rate": 0.5})"));
  EXPECT_EQ(s.points[1].overrides["workload.request_rate"], 1);
  EXPECT_EQ(s.points[3].overrides["prefill.chunked_prefill_size"], 16384);
  EXPECT_EQ(s.points[6].overrides["decode.speculative.algorithm"], "none");
  EXPECT_EQ(s.points[11].index, 11);
  std::set<std::string> ids;
  for (const auto& p : s.points) ids.insert(p.id);
  EXPECT_EQ(ids.size(), 12u);  // ids differ between points
  // Ids and the sweep hash are stable: the same file gives the same ones.
  SweepSpec again = parse(R"({"base": "glm51-2p2d-efa-quick.json",
    "list": [{}, {"decode.speculative.algorithm": "none"}],
    "grid": {"workload.request_rate": [0.5, 1, 2], "prefill.chunked_prefill_size": [8192, 16384]}})");
  EXPECT_EQ(again.hash, s.hash);
  EXPECT_EQ(again.points[5].id, s.points[5].id);
  Json doc = point_scenario(s, s.points[7]);
  EXPECT_EQ(doc["decode"]["speculative"]["algorithm"], "none");
  EXPECT_EQ(doc["workload"]["request_rate"], 1);
}

// A base named as `pdsim list` prints it resolves to its file wherever the sweep sits (its
// relative overlay paths then resolve from the scenario's folder).
TEST(SweepSpec, BaseByScenarioName) {
  const SweepSpec s =
      parse_sweep(JsonNode::from_json(
                      Json::parse(R"({"base": "dsr1/dsr1-2p2d-p5en-tp", "list": [{}]})"), "s.json"),
                  "/tmp");
  EXPECT_EQ(s.base_file, data_root() + "/scenarios/dsr1/dsr1-2p2d-p5en-tp.json");
  EXPECT_EQ(s.points.size(), 1u);
}

TEST(SweepSpec, SetAndSloChangeTheSweepHash) {
  const std::string a = R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"seed": [1, 2]}})";
  const std::string b = R"({"base": "glm51-2p2d-efa-quick.json", "set": {"workload.num_prompts": 8},
                            "grid": {"seed": [1, 2]}})";
  EXPECT_NE(parse(a).hash, parse(b).hash);
  EXPECT_EQ(parse(b).base["workload"]["num_prompts"], 8);
  EXPECT_EQ(parse(a).points[1].id, parse(b).points[1].id);  // the id is of the overrides only
}

TEST(SweepSpec, MalformedFilesNameTheField) {
  EXPECT_NE(error_of(R"({"grid": {"seed": [1]}})").find("field 'base'"), std::string::npos);
  EXPECT_NE(error_of(R"({"base": "glm51-2p2d-efa-quick.json"})").find("\"grid\" or a \"list\""),
            std::string::npos);
  std::string m =
      error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"decode.bogus": [1]}})");
  EXPECT_NE(m.find("s.json: field 'grid.decode.bogus': unknown scenario path"), std::string::npos)
      << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"seed": []}})");
  EXPECT_NE(m.find("field 'grid.seed': expected a non-empty array"), std::string::npos) << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "list": [{"decode.tpp": 8}]})");
  EXPECT_NE(m.find("field 'list[0].decode.tpp': unknown scenario path"), std::string::npos) << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"seed": [1, 1]}})");
  EXPECT_NE(m.find("same overrides"), std::string::npos) << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"seed": [1]}, "typo": 1})");
  EXPECT_NE(m.find("typo"), std::string::npos) << m;
  m = error_of(
      R"({"base": "glm51-2p2d-efa-quick.json", "set": {"decode.dp": "x"}, "grid": {"seed": [1]}})");
  EXPECT_NE(m.find("field 'decode.dp': expected an integer"), std::string::npos) << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"seed": [1]},
                   "slo": {"rate_bracket": [1, 2]}})");
  EXPECT_NE(m.find("field 'slo': expected at least one of"), std::string::npos) << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"seed": [1]},
                   "slo": {"p99_ttft_ms": 100, "rate_bracket": [2, 1]}})");
  EXPECT_NE(m.find("field 'slo.rate_bracket': expected low < high"), std::string::npos) << m;
  m = error_of(R"({"base": "glm51-2p2d-efa-quick.json", "grid": {"workload.request_rate": [1]},
                   "slo": {"p99_ttft_ms": 100, "rate_bracket": [1, 2]}})");
  EXPECT_NE(m.find("searched by"), std::string::npos) << m;
  m = error_of(R"({"base": "nope.json", "grid": {"seed": [1]}})");
  EXPECT_NE(m.find("nope.json: cannot open"), std::string::npos) << m;
  m = error_of(
      R"({"schema": "pdsim.sweep/9", "base": "glm51-2p2d-efa-quick.json", "grid": {"seed": [1]}})");
  EXPECT_NE(m.find("field 'schema'"), std::string::npos) << m;
}

TEST(SweepShard, EveryPointInExactlyOneShard) {
  for (int n : {1, 2, 3, 7}) {
    std::vector<int> owners(100, 0);
    for (int i = 0; i < n; ++i) {
      const Shard s = parse_shard(std::to_string(i) + "/" + std::to_string(n));
      for (int p = 0; p < 100; ++p) owners[static_cast<size_t>(p)] += s.contains(p);
    }
    for (int c : owners) EXPECT_EQ(c, 1) << "N=" << n;
  }
  // Point p → shard p mod N: shard 1/3 holds 1, 4, 7, ...
  const Shard s = parse_shard("1/3");
  EXPECT_TRUE(s.contains(4));
  EXPECT_FALSE(s.contains(5));
  EXPECT_EQ(s.suffix(), ".shard-1-of-3");
  EXPECT_EQ(parse_shard("0/1").suffix(), "");
  for (const char* bad : {"3/3", "1", "a/2", "-1/2", "0/0", "1/2/3"})
    EXPECT_THROW(parse_shard(bad), InputError) << bad;
}

}  // namespace
}  // namespace pdsim

// `pdsim import topology`: describe-instance-topology (tests/data/formats/aws_topology.json, a
// real-format sample) → placement: layer groups, deepest shared layer per pair, stopped
// instances listed as unplaced; malformed files name the file and field.
#include <gtest/gtest.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/import/topology_placement.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

TEST(ImportTopology, SampleFile) {
  const std::string f = testing::format_sample("aws_topology.json");
  const Json p = placement_from_aws_topology(read_file(f), f);
  EXPECT_EQ(p["schema"], "pdsim.placement/1");
  EXPECT_EQ(p["layers"], 3);
  ASSERT_EQ(p["instances"].size(), 2u);
  EXPECT_EQ(p["instances"][0]["instance_id"], "i-0a1b2c3d4e5f00001");
  EXPECT_EQ(p["instances"][1]["network_nodes"][2], "nn-cccc4444");
  // The third instance lists no network nodes (stopped): unplaced, with the reason.
  ASSERT_EQ(p["unplaced"].size(), 1u);
  EXPECT_EQ(p["unplaced"][0]["instance_id"], "i-0a1b2c3d4e5f00003");
  // nn-aaaa1111 / nn-bbbb2222 shared; layer 3 differs: shared_layers = [[3,2],[2,3]].
  EXPECT_EQ(p["shared_layers"], Json::parse("[[3,2],[2,3]]"));
  const Json groups = Json::parse(R"([
    {"layer":1,"network_node":"nn-aaaa1111","instances":["i-0a1b2c3d4e5f00001","i-0a1b2c3d4e5f00002"]},
    {"layer":2,"network_node":"nn-bbbb2222","instances":["i-0a1b2c3d4e5f00001","i-0a1b2c3d4e5f00002"]},
    {"layer":3,"network_node":"nn-cccc3333","instances":["i-0a1b2c3d4e5f00001"]},
    {"layer":3,"network_node":"nn-cccc4444","instances":["i-0a1b2c3d4e5f00002"]}])");
  EXPECT_EQ(p["layer_groups"], groups);
  EXPECT_EQ(p["scenario_cluster"]["topology_file"], f);
}

TEST(ImportTopology, MixedDepthsAndDisjointTops) {
  // A p6 (4 layers) under the same top as a p5en, and one under another top node.
  const std::string text = R"({"Instances":[
    {"InstanceId":"i-1","InstanceType":"p5en.48xlarge","NetworkNodes":["a","b","c"]},
    {"InstanceId":"i-2","InstanceType":"p6-b200.48xlarge","NetworkNodes":["a","b","d","e"]},
    {"InstanceId":"i-3","InstanceType":"p5en.48xlarge","NetworkNodes":["z","y","x"]}]})";
  const Json p = placement_from_aws_topology(text, "mixed.json");
  EXPECT_EQ(p["layers"], 4);
  EXPECT_EQ(p["shared_layers"], Json::parse("[[3,2,0],[2,4,0],[0,0,3]]"));
}

TEST(ImportTopology, Malformed) {
  auto msg = [](const std::string& text) -> std::string {
    try {
      placement_from_aws_topology(text, "t.json");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string f = testing::format_sample("aws_topology_malformed.json");
  std::string m;
  try {
    placement_from_aws_topology(read_file(f), f);
  } catch (const InputError& e) {
    m = e.what();
  }
  EXPECT_NE(m.find("aws_topology_malformed.json"), std::string::npos) << m;
  m = msg(R"({"Instances":[{"InstanceId":"i-1","InstanceType":"p5en.48xlarge","NetworkNodes":["a"]},
                          {"InstanceId":"i-1","InstanceType":"p5en.48xlarge","NetworkNodes":["a"]}]})");
  EXPECT_NE(m.find("Instances[1].InstanceId"), std::string::npos) << m;
  m = msg(
      R"({"Instances":[{"InstanceId":"i-1","InstanceType":"p5en.48xlarge","NetworkNodes":[""]}]})");
  EXPECT_NE(m.find("Instances[0].NetworkNodes"), std::string::npos) << m;
  m = msg(R"({"Instances":{}})");
  EXPECT_NE(m.find("Instances"), std::string::npos) << m;
  m = msg("not json");
  EXPECT_NE(m.find("t.json"), std::string::npos) << m;
}

}  // namespace
}  // namespace pdsim

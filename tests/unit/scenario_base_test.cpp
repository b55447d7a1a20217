// A scenario's `base` (sim/scenario/scenario_base.hpp): merge patch, chains, path rebasing and
// the errors, on files written to a scratch folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_base.hpp"

namespace pdsim {
namespace scenario_base_test {

namespace fs = std::filesystem;

// An empty folder of its own for each test.
fs::path scratch(const std::string& test) {
  const fs::path dir = fs::temp_directory_path() / "pdsim_scenario_base_test" / test;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return fs::weakly_canonical(dir);
}

std::string write(const fs::path& file, const Json& doc) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << doc.dump(2) << "\n";
  return file.string();
}

// The smallest whole scenario, with `extra` merged on top.
Json minimal(const Json& extra = Json::object()) {
  Json doc = Json::parse(R"({"model":"glm-5.1-fp8","cluster":{"instance_type":"p5en.48xlarge"},
    "fabric":{},"prefill":{},"decode":{},"workload":{}})");
  doc.merge_patch(extra);
  return doc;
}

std::string error_of(const std::string& file) {
  try {
    load_scenario(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioBase, NestedObjectsMergeKeyByKey) {
  const fs::path dir = scratch("nested");
  write(dir / "base.json",
        minimal({{"workload", {{"input_len", 2000}, {"output_len", 300}}},
                 {"decode",
                  {{"tp", 8},
                   {"speculative",
                    {{"algorithm", "eagle"}, {"num_steps", 2}, {"num_draft_tokens", 3}}}}}}));
  const std::string d = write(
      dir / "d.json", {{"base", "base.json"},
                       {"workload", {{"input_len", 4000}}},
                       {"decode", {{"speculative", {{"num_steps", 3}, {"num_draft_tokens", 4}}}}}});
  EXPECT_EQ(load_scenario_document(d).raw(),
            minimal({{"workload", {{"input_len", 4000}, {"output_len", 300}}},
                     {"decode",
                      {{"tp", 8},
                       {"speculative",
                        {{"algorithm", "eagle"}, {"num_steps", 3}, {"num_draft_tokens", 4}}}}}}));
  const Scenario s = load_scenario(d);
  EXPECT_EQ(s.workload.input_len, 4000);
  EXPECT_EQ(s.workload.output_len, 300);
  EXPECT_EQ(s.decode.tp, 8);
  EXPECT_EQ(s.decode.speculative.algorithm, "eagle");
  EXPECT_EQ(s.decode.speculative.num_steps, 3);
  EXPECT_EQ(s.file, d);
  EXPECT_EQ(s.name, "d");  // the base names none: the derived file's stem
  EXPECT_FALSE(s.resolved_json().contains("base"));
}

TEST(ScenarioBase, ArraysReplaceWhole) {
  const fs::path dir = scratch("arrays");
  write(dir / "base.json", minimal({{"decode", {{"cuda_graph_bs", {1, 2, 4, 8}}}}}));
  const std::string d =
      write(dir / "d.json", {{"base", "base.json"}, {"decode", {{"cuda_graph_bs", {16}}}}});
  EXPECT_EQ(load_scenario(d).decode.cuda_graph_bs, std::vector<int>{16});
}

TEST(ScenarioBase, NullRemovesAKeySoTheFieldTakesItsDefault) {
  const fs::path dir = scratch("null");
  write(dir / "base.json", minimal({{"name", "fixed"},
                                    {"description", "the base"},
                                    {"workload", {{"max_concurrency", 8}, {"input_len", 5}}}}));
  const std::string d = write(dir / "d.json", {{"base", "base.json"},
                                               {"name", nullptr},
                                               {"description", nullptr},
                                               {"workload", {{"max_concurrency", nullptr}}}});
  const Scenario s = load_scenario(d);
  EXPECT_EQ(s.name, "d");
  EXPECT_EQ(s.description, "");
  EXPECT_EQ(s.workload.max_concurrency, 0);
  EXPECT_EQ(s.workload.input_len, 5);
  // Without the null the base's name is kept, as any other field.
  const std::string kept = write(dir / "kept.json", {{"base", "base.json"}});
  EXPECT_EQ(load_scenario(kept).name, "fixed");
}

TEST(ScenarioBase, ChainOfTwoNearestFileWins) {
  const fs::path dir = scratch("chain");
  write(dir / "a.json",
        minimal({{"seed", 1}, {"workload", {{"input_len", 1}, {"output_len", 1}}}}));
  write(dir / "b.json", {{"base", "a.json"}, {"seed", 2}, {"workload", {{"input_len", 2}}}});
  const std::string c = write(dir / "c.json", {{"base", "b.json"}, {"seed", 3}});
  const Scenario s = load_scenario(c);
  EXPECT_EQ(s.seed, 3u);
  EXPECT_EQ(s.workload.input_len, 2);
  EXPECT_EQ(s.workload.output_len, 1);
}

TEST(ScenarioBase, RelativePathsFromTheBaseResolveFromItsFolder) {
  const fs::path dir = scratch("rebase");
  write(dir / "shipped" / "topo.json", Json::object());
  write(dir / "shipped" / "base.json",
        minimal({{"profile_overlays", {"overlays/o.json", "/abs/p.json"}},
                 {"cluster", {{"topology_file", "topo.json"}}}}));
  const std::string d =
      write(dir / "mine" / "d.json", {{"base", "../shipped/base.json"}, {"seed", 7}});
  const Json doc = load_scenario_document(d).raw();
  EXPECT_EQ(doc.at("profile_overlays"),
            Json::array({(dir / "shipped/overlays/o.json").string(), "/abs/p.json"}));
  EXPECT_EQ(doc.at("cluster").at("topology_file"), (dir / "shipped/topo.json").string());
  // A value the derived file writes is its own: relative to its folder, as without a base.
  const std::string own = write(dir / "mine" / "own.json", {{"base", "../shipped/base.json"},
                                                            {"profile_overlays", {"x.json"}}});
  EXPECT_EQ(load_scenario(own).profile_overlays, std::vector<std::string>{"x.json"});
  // From another working directory the merged scenario means the same.
  const fs::path cwd = fs::current_path();
  fs::current_path(dir / "mine");
  const Scenario s = load_scenario(d);
  fs::current_path(cwd);
  EXPECT_EQ(s.cluster.topology_file, (dir / "shipped/topo.json").string());
  EXPECT_EQ(rebase_file_relative(Json{{"cluster", {{"topology_file", ""}}}}, "/x"),
            (Json{{"cluster", {{"topology_file", ""}}}}));  // "" = none stays none
}

TEST(ScenarioBase, ByNameThroughTheDataDirectory) {
  const fs::path dir = scratch("named");
  const std::string d =
      write(dir / "d.json", {{"base", "glm51-2p2d-efa-quick"}, {"workload", {{"num_prompts", 8}}}});
  const Scenario s = load_scenario(d);
  EXPECT_EQ(s.workload.num_prompts, 8);
  EXPECT_EQ(s.workload.input_len, 32000);
  EXPECT_EQ(s.name, "glm51-2p2d-efa-quick");
  EXPECT_EQ(s.profile_overlays,
            std::vector<std::string>{
                (fs::path(data_root()) / "calibrate/overlays/glm51-2p2d-p5en-20260430.json")
                    .lexically_normal()
                    .string()});
}

TEST(ScenarioBase, CycleNamesTheChain) {
  const fs::path dir = scratch("cycle");
  const std::string a = write(dir / "a.json", {{"base", "b.json"}});
  const std::string b = write(dir / "b.json", {{"base", "./a.json"}});
  EXPECT_EQ(error_of(a), b + ": field 'base': expected a chain of bases without a cycle, got " + a +
                             " -> " + b + " -> " + a);
  const std::string self = write(dir / "self.json", {{"base", "self.json"}});
  EXPECT_EQ(error_of(self), self +
                                ": field 'base': expected a chain of bases without a cycle, got " +
                                self + " -> " + self);
}

TEST(ScenarioBase, DepthIsBounded) {
  const fs::path dir = scratch("depth");
  // f0 -> f1 -> ... -> f16: 16 links, the most allowed.
  write(dir / "f16.json", minimal({{"seed", 16}}));
  for (int i = 15; i >= 0; --i)
    write(dir / ("f" + std::to_string(i) + ".json"),
          {{"base", "f" + std::to_string(i + 1) + ".json"}});
  EXPECT_EQ(load_scenario((dir / "f0.json").string()).seed, 16u);
  // One more link at the top is one too many.
  const std::string top = write(dir / "top.json", {{"base", "f0.json"}});
  const std::string m = error_of(top);
  const std::string head = (dir / "f15.json").string() +
                           ": field 'base': expected at most 16 bases in a chain, got " + top +
                           " -> " + (dir / "f0.json").string() + " -> ";
  EXPECT_EQ(m.substr(0, head.size()), head) << m;
  EXPECT_TRUE(m.ends_with(" -> " + (dir / "f16.json").string())) << m;
}

TEST(ScenarioBase, MissingBaseSaysWhereItLooked) {
  const fs::path dir = scratch("missing");
  const std::string d = write(dir / "d.json", {{"base", "nope"}});
  EXPECT_EQ(error_of(d), d + ": field 'base': expected a scenario file relative to " +
                             dir.string() + ", or a scenario name that pdsim list prints (" +
                             data_root() + "/scenarios/NAME.json); 'nope' is neither");
  // A name never climbs out of the data directory's scenarios/.
  const std::string climbing = write(dir / "c.json", {{"base", "../glm51-2p2d-efa-quick"}});
  EXPECT_NE(error_of(climbing).find("'../glm51-2p2d-efa-quick' is neither"), std::string::npos);
}

TEST(ScenarioBase, BaseMustBeAString) {
  const fs::path dir = scratch("type");
  const std::string d = write(dir / "d.json", {{"base", 3}});
  EXPECT_EQ(error_of(d), d + ": field 'base': expected a string (a scenario file relative to this "
                             "file's folder, or a name pdsim list prints), got number");
}

TEST(ScenarioBase, InvalidBaseNamesTheBaseFileAndField) {
  const fs::path dir = scratch("invalid");
  const std::string b = write(dir / "b.json", minimal({{"workload", {{"input_len", "long"}}}}));
  const std::string d =
      write(dir / "d.json", {{"base", "b.json"}, {"workload", {{"input_len", 3}}}});
  EXPECT_EQ(error_of(d), b +
                             ": field 'workload.input_len': expected an integer, got string (in "
                             "the base of " +
                             d + ")");
}

// A document built in memory has no folder to resolve a base from.
TEST(ScenarioBase, UnresolvedBaseInADocumentIsRefused) {
  std::string m;
  try {
    parse_scenario(JsonNode::from_json(minimal({{"base", "x"}}), "mem.json"));
  } catch (const InputError& e) {
    m = e.what();
  }
  EXPECT_EQ(m,
            "mem.json: field 'base': expected no base here: a base is merged when a scenario file "
            "is loaded");
}

}  // namespace scenario_base_test
}  // namespace pdsim

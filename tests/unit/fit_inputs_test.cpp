// The serving fit's inputs (sim/fit): fit parameter specs and validation sets with the measured
// records' artefacts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calibrate/bench_serving_artefacts.hpp"
#include "sim/core/data_path.hpp"
#include "sim/fit/serving_fit.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

using testing::input_error_of;

const std::string kSet = "/calibrate/validation/glm51-2p2d-p5en-20260430.json";

TEST(FitParameter, ParsesPathAndRange) {
  const FitParameter p = parse_fit_parameter("fabric.a2a.cpu-proxy.fixed_us=0:300");
  EXPECT_EQ(p.kind, "fabric");
  EXPECT_EQ(p.field, (std::vector<std::string>{"a2a", "cpu-proxy", "fixed_us"}));
  EXPECT_EQ(p.lo, 0);
  EXPECT_EQ(p.hi, 300);
  EXPECT_TRUE(p.fabric_specific());
  EXPECT_FALSE(
      parse_fit_parameter("serving.decode.host_us_per_iteration=1e2:2e4").fabric_specific());
  // A collective profile belongs to one library stack on one fabric.
  const FitParameter c = parse_fit_parameter("collective.serving_call_us=0:300");
  EXPECT_EQ(c.kind, "collective");
  EXPECT_EQ(c.field, (std::vector<std::string>{"serving_call_us"}));
  EXPECT_TRUE(c.fabric_specific());
  EXPECT_NE(
      input_error_of([] { parse_fit_parameter("serving.decode.x=5:5"); }).find("expected LO < HI"),
      std::string::npos);
  EXPECT_NE(input_error_of([] { parse_fit_parameter("serving.decode.x"); }).find("PATH=LO:HI"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_fit_parameter("network.x=0:1"); }).find("fabric., gpu."),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_fit_parameter("gpu.x=a:1"); }).find("numbers LO and HI"),
            std::string::npos);
}

TEST(ValidationSet, TheShippedRunsAndTheirArtefacts) {
  const ValidationSet s = load_validation_set(data_root() + kSet);
  ASSERT_EQ(s.runs.size(), 3u);
  const ValidationRun& r2 = s.runs[0];
  EXPECT_EQ(r2.name, "R2-shared-rails");
  // 1731 of 16384 output tokens retokenized (10.6 %) with median TTFT 0: the reasoning parser.
  ASSERT_TRUE(r2.artefacts.count("mean_ttft_ms"));
  EXPECT_NE(r2.artefacts.at("median_tpot_ms").find("10.6%"), std::string::npos);
  EXPECT_FALSE(r2.comparable("mean_ttft_ms"));
  EXPECT_FALSE(r2.comparable("p99_itl_ms"));  // excluded by the set: a tail event
  EXPECT_TRUE(r2.comparable("median_itl_ms"));
  EXPECT_TRUE(s.runs[1].comparable("p99_itl_ms"));
  EXPECT_FALSE(s.runs[2].comparable("accept_length"));  // null: not measured
  EXPECT_TRUE(bench_serving_artefacts(Json{{"median_ttft_ms", 120.0},
                                           {"mean_ttft_ms", 130.0},
                                           {"total_output_tokens", 100},
                                           {"total_output_tokens_retokenized", 100}})
                  .empty());
}

TEST(ValidationSet, BadFilesAreNamed) {
  const std::string dir = ::testing::TempDir() + "/vset";
  std::filesystem::create_directories(dir);
  Json set = JsonNode::load_file(data_root() + kSet).raw();
  set["runs"][0]["scenario"] = data_root() + "/scenarios/glm51-2p2d-efa.json";
  set["runs"][0]["measured"] = dir + "/absent.json";
  std::ofstream(dir + "/s1.json") << set.dump();
  std::string m = input_error_of([&] { load_validation_set(dir + "/s1.json"); });
  EXPECT_NE(m.find("runs[0].measured"), std::string::npos) << m;
  EXPECT_NE(m.find("does not exist"), std::string::npos) << m;
  set["runs"][0]["measured"] = data_root() + "/scenarios/glm51-2p2d-efa.json";  // not bench_serving
  std::ofstream(dir + "/s2.json") << set.dump();
  m = input_error_of([&] { load_validation_set(dir + "/s2.json"); });
  EXPECT_NE(m.find("bench_serving"), std::string::npos) << m;
}

// A published point written in the set: only its figures are compared.
TEST(ValidationSet, PublishedPointInTheSet) {
  const std::string dir = ::testing::TempDir() + "/vset-pub";
  std::filesystem::create_directories(dir);
  Json set = JsonNode::load_file(data_root() + kSet).raw();
  set["runs"] = Json::array({set["runs"][0]});
  set["runs"][0]["scenario"] = data_root() + "/scenarios/glm51-2p2d-efa.json";
  set["runs"][0]["measured"] = {{"published", {{"mean_tpot_ms", 49.1}, {"output_throughput", 531}}},
                                {"source", "RESULTS-2p2d.md@911c L77"}};
  std::ofstream(dir + "/p1.json") << set.dump();
  const ValidationSet v = load_validation_set(dir + "/p1.json");
  EXPECT_EQ(v.runs[0].measured_file, dir + "/p1.json");
  EXPECT_DOUBLE_EQ(v.runs[0].measured.at("mean_tpot_ms").get<double>(), 49.1);
  EXPECT_TRUE(v.runs[0].comparable("output_throughput"));
  EXPECT_FALSE(v.runs[0].comparable("median_itl_ms"));         // not published
  set["runs"][0]["measured"]["published"] = {{"tpot", 49.1}};  // not a bench_serving name
  std::ofstream(dir + "/p2.json") << set.dump();
  std::string m = input_error_of([&] { load_validation_set(dir + "/p2.json"); });
  EXPECT_NE(m.find("runs[0].measured.published.tpot"), std::string::npos) << m;
  set["runs"][0]["measured"]["published"] = {{"mean_tpot_ms", -1}};
  std::ofstream(dir + "/p3.json") << set.dump();
  m = input_error_of([&] { load_validation_set(dir + "/p3.json"); });
  EXPECT_NE(m.find("mean_tpot_ms"), std::string::npos) << m;
}

// Each run's workload comes from its record (the shipped set writes none), before the set's and
// the run's own overrides; FILE.jsonl:LINE picks one record of an appended file.
TEST(ValidationSet, WorkloadFromTheRecordAndOneLineOfAFile) {
  const ValidationSet s = load_validation_set(data_root() + kSet);
  const auto& sets = s.runs[0].sets;
  ASSERT_GE(sets.size(), 8u);
  EXPECT_EQ(sets[1], "workload.input_len=60000");
  EXPECT_EQ(sets[4], "workload.num_prompts=16");  // the record's `completed`
  EXPECT_EQ(sets[7], "profile_overlays=[]");      // the set's own, after the record's

  const std::string dir = ::testing::TempDir() + "/vset-line";
  std::filesystem::create_directories(dir);
  Json set = JsonNode::load_file(data_root() + kSet).raw();
  Json record = JsonNode::load_file(s.runs[0].measured_file).raw();
  std::ofstream jl(dir + "/runs.jsonl");
  jl << record.dump() << "\n";
  record["random_input_len"] = 30000;
  jl << record.dump() << "\n";
  jl.close();
  set["runs"] = Json::array({set["runs"][0]});
  set["runs"][0]["scenario"] = data_root() + "/scenarios/glm51-2p2d-efa.json";
  set["runs"][0]["measured"] = "runs.jsonl:1";
  std::ofstream(dir + "/l1.json") << set.dump();
  EXPECT_EQ(load_validation_set(dir + "/l1.json").runs[0].sets[1], "workload.input_len=60000");
  set["runs"][0]["measured"] = "runs.jsonl";  // the last record
  std::ofstream(dir + "/l2.json") << set.dump();
  EXPECT_EQ(load_validation_set(dir + "/l2.json").runs[0].sets[1], "workload.input_len=30000");
  set["workload_from_record"] = false;
  std::ofstream(dir + "/l3.json") << set.dump();
  EXPECT_EQ(load_validation_set(dir + "/l3.json").runs[0].sets.front(), "profile_overlays=[]");
  set["runs"][0]["measured"] = "runs.jsonl:3";
  std::ofstream(dir + "/l4.json") << set.dump();
  const std::string m = input_error_of([&] { load_validation_set(dir + "/l4.json"); });
  EXPECT_NE(m.find("line 3"), std::string::npos) << m;
}

}  // namespace
}  // namespace pdsim

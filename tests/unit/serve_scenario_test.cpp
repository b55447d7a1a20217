#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/serve/actors/prefill_chunk_timer.hpp"
#include "sim/serve/cost/acceptance.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/entities/workload.hpp"

namespace pdsim {
namespace {

std::string scenario(const std::string& name) {
  return data_root() + "/scenarios/" + name + ".json";
}

// Runs `f` and returns the InputError message ("" if none was thrown).
template <class F>
std::string input_error(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
template <class F>
std::string infeasible(F f) {
  try {
    f();
  } catch (const InfeasibleError& e) {
    return e.what();
  }
  return "";
}

TEST(Scenario, ReferenceLoadsWithMissionFlags) {
  Scenario s = load_scenario(scenario("glm51-2p2d-efa"));
  EXPECT_EQ(s.prefill.tp, 8);
  EXPECT_EQ(s.prefill.pp, 2);
  EXPECT_EQ(s.prefill.chunked_prefill_size, 16384);
  EXPECT_EQ(s.decode.dp, 16);
  EXPECT_EQ(s.decode.ll_max_dispatch_tokens_per_rank, 128);
  EXPECT_EQ(s.decode.speculative.num_draft_tokens, 4);
  EXPECT_EQ(s.workload.input_len, 120000);
  EXPECT_DOUBLE_EQ(s.workload.request_rate, 0.4);
}

TEST(Scenario, SetOverridesAnyResolvedPath) {
  Scenario s = load_scenario(scenario("glm51-2p2d-efa"),
                             {"workload.request_rate=1.5", "decode.speculative.algorithm=none",
                              "fabric.a2a_backend=batched-proxy", "workload.max_concurrency=8"});
  EXPECT_DOUBLE_EQ(s.workload.request_rate, 1.5);
  EXPECT_FALSE(s.decode.speculative.enabled());
  EXPECT_EQ(s.fabric.a2a_backend, "batched-proxy");
  EXPECT_EQ(s.workload.max_concurrency, 8);
  Scenario inf = load_scenario(scenario("glm51-2p2d-efa"), {"workload.request_rate=inf"});
  EXPECT_TRUE(std::isinf(inf.workload.request_rate));
}

TEST(Scenario, BadInputNamesFileFieldAndExpectation) {
  const std::string f = scenario("glm51-2p2d-efa");
  std::string m = input_error([&] { load_scenario(f, {"decode.bogus=3"}); });
  EXPECT_NE(m.find("decode.bogus"), std::string::npos) << m;
  EXPECT_NE(m.find("unknown scenario path"), std::string::npos) << m;
  m = input_error([&] { load_scenario(f, {"workload.request_rate=-1"}); });
  EXPECT_NE(m.find("workload.request_rate"), std::string::npos) << m;
  EXPECT_NE(m.find("expected a positive number"), std::string::npos) << m;
  m = input_error([&] { load_scenario(f, {"decode.dp=\"sixteen\""}); });
  EXPECT_NE(m.find("decode.dp"), std::string::npos) << m;
  EXPECT_NE(m.find("expected an integer, got string"), std::string::npos) << m;
  m = input_error([&] { load_scenario(f, {"no_equals_sign"}); });
  EXPECT_NE(m.find("expected dotted.path=value"), std::string::npos) << m;
  m = input_error([&] { load_scenario("/nonexistent/s.json"); });
  EXPECT_NE(m.find("/nonexistent/s.json: cannot open"), std::string::npos) << m;
}

// A scenario by the name `pdsim list` prints, subfolder included; paths as given.
TEST(Scenario, ByNameFromTheDataDirectory) {
  const std::string root = data_root() + "/scenarios/";
  EXPECT_EQ(scenario_file("glm51-2p2d-efa-quick"), root + "glm51-2p2d-efa-quick.json");
  EXPECT_EQ(scenario_file("dsr1/dsr1-2p2d-p5en-deepep"), root + "dsr1/dsr1-2p2d-p5en-deepep.json");
  EXPECT_EQ(load_scenario("dsr1/dsr1-2p2d-p5en-deepep").name, "dsr1-2p2d-p5en-deepep");
  EXPECT_EQ(scenario_file(root + "glm51-2p2d-efa.json"), root + "glm51-2p2d-efa.json");
  EXPECT_EQ(scenario_file("nope.json"), "nope.json");  // a path: load_file names the failure
  for (const char* bad : {"glm51-2p2d-efa-quik", "../scenarios/glm51-2p2d-efa", "", "sweeps"}) {
    const std::string m = input_error([&] { scenario_file(bad); });
    EXPECT_NE(m.find("a scenario name that `pdsim list` prints"), std::string::npos) << bad << m;
  }
}

TEST(Scenario, MissingFieldAndUnknownFieldAndWrongType) {
  Json doc = Json::parse(R"({"model":"glm-5.1-fp8","cluster":{"instance_type":"p5en.48xlarge"},
    "fabric":{},"prefill":{},"decode":{},"workload":{"input_len":"long"}})");
  std::string m = input_error([&] { parse_scenario(JsonNode::from_json(doc, "s.json")); });
  EXPECT_EQ(m, "s.json: field 'workload.input_len': expected an integer, got string");
  doc.erase("model");
  m = input_error([&] { parse_scenario(JsonNode::from_json(doc, "s.json")); });
  EXPECT_EQ(m, "s.json: field 'model': missing required field");
  doc["model"] = "glm-5.1-fp8";
  doc["workload"] = Json::object();
  doc["decode"]["dpp"] = 2;
  m = input_error([&] { parse_scenario(JsonNode::from_json(doc, "s.json")); });
  EXPECT_NE(m.find("s.json: field 'decode.dpp': unknown field"), std::string::npos) << m;
}

TEST(Deployment, UnknownModelListsCatalog) {
  std::string m = input_error(
      [&] { build_deployment(load_scenario(scenario("glm51-2p2d-efa"), {"model=glm-9"})); });
  EXPECT_NE(m.find("field 'model'"), std::string::npos) << m;
  EXPECT_NE(m.find("unknown name 'glm-9'"), std::string::npos) << m;
  EXPECT_NE(m.find("deepseek-v3"), std::string::npos) << m;
}

TEST(Deployment, InfeasibleLayoutsAreReportedNotSimulated) {
  const std::string f = scenario("glm51-2p2d-efa");
  // 3 decode nodes = 24 GPUs: EP 24 does not divide 256 experts (SGLang's FusedMoE rule, named
  // on the scenario's field).
  std::string m = infeasible([&] {
    build_deployment(load_scenario(
        f, {"decode.nodes_per_instance=3", "decode.tp=24", "decode.dp=24", "decode.ep=24"}));
  });
  EXPECT_NE(m.find("field 'decode.ep': a divisor of the 256 routed experts (FusedMoE"),
            std::string::npos)
      << m;
  // Half of 141 GB per GPU cannot hold 1/16 of a 705 GB model plus replicated attention.
  m = infeasible([&] { build_deployment(load_scenario(f, {"decode.mem_fraction_static=0.3"})); });
  EXPECT_FALSE(m.empty());
  m = infeasible([&] { build_deployment(load_scenario(f, {"prefill.pp=3"})); });
  EXPECT_NE(m.find("tp × pp = 24"), std::string::npos) << m;
}

// A launch without --enable-dp-lm-head puts the LM head on the vocab-parallel TP group, which the
// cost model does not have: refused with the field named, not costed as if it were on.
TEST(Deployment, VocabParallelLmHeadIsRefusedByName) {
  const std::string m = input_error([&] {
    build_deployment(load_scenario(scenario("glm51-2p2d-efa"), {"decode.enable_dp_lm_head=false"}));
  });
  EXPECT_NE(m.find("field 'decode.enable_dp_lm_head': expected true with DP attention (the "
                   "vocab-parallel LM head"),
            std::string::npos)
      << m;
}

TEST(Workload, BenchServingRandomSemantics) {
  WorkloadConfig w;
  w.input_len = 1000;
  w.output_len = 10;
  w.range_ratio = 0.5;
  w.num_prompts = 20000;
  w.request_rate = 2.0;
  Rng rng(3);
  auto reqs = generate_requests(w, rng);
  ASSERT_EQ(reqs.size(), 20000u);
  EXPECT_EQ(reqs[0].gap_s, 0.0);  // the first request is sent at t = 0
  double gaps = 0, in_sum = 0;
  int in_min = 1 << 30, in_max = 0;
  for (const auto& r : reqs) {
    gaps += r.gap_s;
    in_sum += r.input_len;
    in_min = std::min(in_min, r.input_len);
    in_max = std::max(in_max, r.input_len);
    ASSERT_GE(r.output_len, 5);
    ASSERT_LE(r.output_len, 10);
  }
  EXPECT_EQ(in_min, 500);  // uniform integers in [1000·0.5, 1000]
  EXPECT_EQ(in_max, 1000);
  EXPECT_NEAR(in_sum / 20000, 750.0, 3.0);          // mean 750, σ/√n = 144/141 ≈ 1
  EXPECT_NEAR(gaps / 19999, 0.5, 0.5 * 5 / 141.4);  // exponential mean 1/rate, 5 σ/√n
  w.request_rate = std::numeric_limits<double>::infinity();
  Rng rng2(3);
  for (const auto& r : generate_requests(w, rng2)) ASSERT_EQ(r.gap_s, 0.0);
}

TEST(Acceptance, ChainGeometricMean) {
  SpeculativeConfig c;
  c.algorithm = "eagle";
  c.num_steps = 3;
  AcceptanceModel m(c, 0.5);
  EXPECT_DOUBLE_EQ(m.mean_tokens(), 1.875);  // 1 + 0.5 + 0.25 + 0.125
  Rng rng(5);
  double s = 0;
  for (int i = 0; i < 100000; ++i) {
    const int k = m.sample_tokens(rng);
    ASSERT_GE(k, 1);
    ASSERT_LE(k, 4);
    s += k;
  }
  EXPECT_NEAR(s / 100000, 1.875, 0.01);  // σ ≈ 1, 5σ/√n ≈ 0.016 → 0.01 is ~3σ
  c.algorithm = "none";
  EXPECT_EQ(AcceptanceModel(c, 0.5).sample_tokens(rng), 1);
}

TEST(PrefillCost, ExpectedDistinctRanks) {
  // 256 experts on 8 ranks (32 each), top-8: P(rank missed) = Π_{i<8} (224 − i)/(256 − i)
  // = 0.33817; E = 8 · (1 − 0.33817) = 5.2947.
  double miss = 1;
  for (int i = 0; i < 8; ++i) miss *= (224.0 - i) / (256.0 - i);
  EXPECT_NEAR(PrefillChunkTimer::expected_distinct_ranks(256, 8, 8), 8 * (1 - miss), 1e-12);
  EXPECT_NEAR(PrefillChunkTimer::expected_distinct_ranks(256, 8, 8), 5.2947, 0.0001);
  EXPECT_DOUBLE_EQ(PrefillChunkTimer::expected_distinct_ranks(256, 1, 8), 1.0);
  EXPECT_DOUBLE_EQ(PrefillChunkTimer::expected_distinct_ranks(8, 8, 8), 8.0);
}

}  // namespace
}  // namespace pdsim

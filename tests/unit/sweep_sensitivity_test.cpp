#include <gtest/gtest.h>

#include <algorithm>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/sweep/sensitivity.hpp"

namespace pdsim {
namespace {

TEST(CalibrateSensitivity, ParametersOfAProfileDocument) {
  const Json doc = Json::parse(R"({
    "schema": "pdsim.fabric_profile/1", "name": "x", "transport": "srd",
    "provenance": {"seed": 1}, "fit": {"rms_us": 3.0},
    "rdma_alpha_us": 10.0, "nvlink_alpha_us": 0.0,
    "a2a": {"cpu-proxy": {"latency_us": 10.0, "proxy_threads": 4, "intranode_nvlink": true,
                          "measurements": {"rtt_us": 2.5}, "provenance": {"n": 3},
                          "priors": {"fixed_us": {"lower": 0, "upper": 110, "basis": "b"}}},
            "ibgda": {"unsupported": "why"}},
    "kv_block_GBps": {"x": [65536.0, 131072.0], "eff": [100.0, 200.0], "x_unit": "bytes"}})");
  const auto ps = sensitivity_parameters("fabric", doc);
  std::vector<std::string> names;
  for (const auto& p : ps) names.push_back(p.name);
  // Sorted keys, depth first; bookkeeping (at any depth), booleans and strings left out; the
  // curve is one parameter.
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "fabric:a2a.cpu-proxy.latency_us", "fabric:a2a.cpu-proxy.proxy_threads",
                "fabric:kv_block_GBps.eff", "fabric:nvlink_alpha_us", "fabric:rdma_alpha_us"}));
  EXPECT_TRUE(ps[1].integer);
  EXPECT_TRUE(ps[2].curve);

  // 4 threads ± 20 %: 4.8 → 5 and 3.2 → 3; 10 µs → 12 µs; the curve scaled point by point.
  auto up = perturb_parameter(doc, ps[1], 0.2), down = perturb_parameter(doc, ps[1], -0.2);
  EXPECT_EQ(up->doc["a2a"]["cpu-proxy"]["proxy_threads"], 5);
  EXPECT_EQ(down->doc["a2a"]["cpu-proxy"]["proxy_threads"], 3);
  EXPECT_DOUBLE_EQ(perturb_parameter(doc, ps[0], 0.2)->value, 12.0);
  auto curve = perturb_parameter(doc, ps[2], -0.2);
  EXPECT_DOUBLE_EQ(curve->doc["kv_block_GBps"]["eff"][1].get<double>(), 160.0);
  EXPECT_DOUBLE_EQ(curve->doc["kv_block_GBps"]["x"][1].get<double>(), 131072.0);
  EXPECT_DOUBLE_EQ(curve->value, 0.8);
  EXPECT_FALSE(perturb_parameter(doc, ps[3], 0.2).has_value());  // 0 · 1.2 = 0
  // A small integer still moves by one: 1 · 0.9 rounds back to 1, so it goes to 0.
  Json one = doc;
  one["a2a"]["cpu-proxy"]["proxy_threads"] = 1;
  const auto ps1 = sensitivity_parameters("fabric", one);
  EXPECT_EQ(perturb_parameter(one, ps1[1], -0.1)->doc["a2a"]["cpu-proxy"]["proxy_threads"], 0);
}

const SensitivityRow& row(const SensitivityResult& r, const std::string& name) {
  auto it = std::find_if(r.rows.begin(), r.rows.end(),
                         [&](const SensitivityRow& x) { return x.param.name == name; });
  if (it == r.rows.end()) throw std::runtime_error("no row " + name);
  return *it;
}

TEST(CalibrateSensitivity, QuickScenarioUnusedLinearAndBoundedParameters) {
  SensitivityOptions o;
  o.scenario = data_root() + "/scenarios/glm51-2p2d-efa-quick.json";
  o.params = {"fabric:a2a.batched-proxy.latency_us", "fabric:a2a.cpu-proxy.latency_us",
              "fabric:rdma_nic_efficiency"};
  // The profiles alone (no fitted overlay); 16 prompts keep the test short, the reasoning below
  // holds for any number.
  o.sets = {"profile_overlays=[]", "workload.num_prompts=16"};
  o.jobs = 2;
  const SensitivityResult r = run_sensitivity(o);
  ASSERT_EQ(r.rows.size(), 3u);

  // The scenario runs the cpu-proxy backend: batched-proxy's parameters are never read, the
  // simulation is the same, and the elasticity is exactly 0 (not merely small).
  const auto& unused = row(r, "fabric:a2a.batched-proxy.latency_us");
  EXPECT_EQ(unused.method, "central");
  EXPECT_EQ(*unused.e_tpot, 0.0);
  EXPECT_EQ(*unused.e_itl, 0.0);
  EXPECT_EQ(*unused.e_ttft, 0.0);

  // cpu-proxy latency_us is a fixed term of every dispatch and combine phase. One decode
  // iteration (one streamed chunk) has 2 phases per MoE block: GLM-5.1's 78 − 3 dense = 75
  // layers in the verify forward, plus the MTP layer in 2 draft steps (num_steps − 1) and 1
  // draft extend, so 2 · (75 + 2 + 1) = 156 phases. 10 µs ± 20 % = 8 and 12 µs, and the same
  // batches (same seed) give every inter-chunk gap, the p99 one included, 156 · 4 µs = 0.624 ms
  // more. The sign of the elasticities follows: positive.
  const auto& lat = row(r, "fabric:a2a.cpu-proxy.latency_us");
  EXPECT_EQ(lat.method, "central");
  EXPECT_DOUBLE_EQ(*lat.lo_value, 8.0);
  EXPECT_DOUBLE_EQ(*lat.hi_value, 12.0);
  EXPECT_NEAR(lat.hi->p99_itl_ms - lat.lo->p99_itl_ms, 0.624, 0.624 * 0.01);
  EXPECT_GT(*lat.e_tpot, 0);
  EXPECT_GT(*lat.e_itl, 0);
  // E = ln(ITL(12)/ITL(8)) / ln(12/8), by definition of the central log difference.
  EXPECT_NEAR(*lat.e_itl, std::log(lat.hi->p99_itl_ms / lat.lo->p99_itl_ms) / std::log(1.5), 1e-12);

  // rdma_nic_efficiency 0.917 · 1.2 > 1 is not an efficiency: only the −20 % side runs
  // (backward difference against the base run). A slower wire cannot make anything faster.
  const auto& eff = row(r, "fabric:rdma_nic_efficiency");
  EXPECT_EQ(eff.method, "backward");
  EXPECT_FALSE(eff.hi.has_value());
  EXPECT_LE(*eff.e_tpot, 0);
  EXPECT_LE(*eff.e_itl, 0);

  // Ranked by max(|E_tpot|, |E_itl|): the fixed latency first. (At 1-8 tokens per rank the
  // proxy's signals bind, not the wire, so the NIC efficiency ties with the unused parameter.)
  EXPECT_EQ(r.rows.front().param.name, "fabric:a2a.cpu-proxy.latency_us");

  // Same inputs and seed, one job at a time: byte-identical output.
  o.jobs = 1;
  EXPECT_EQ(sensitivity_json(run_sensitivity(o)).dump(), sensitivity_json(r).dump());
}

TEST(CalibrateSensitivity, BadOptionsAreInputErrors) {
  SensitivityOptions o;
  o.scenario = data_root() + "/scenarios/glm51-2p2d-efa-quick.json";
  o.params = {"fabric:no_such_parameter"};
  try {
    run_sensitivity(o);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("--param"), std::string::npos) << m;
    EXPECT_NE(m.find("fabric:rdma_alpha_us"), std::string::npos) << m;  // lists what exists
  }
  o.params.clear();
  o.step = 1.5;
  EXPECT_THROW(run_sensitivity(o), InputError);
}

}  // namespace
}  // namespace pdsim

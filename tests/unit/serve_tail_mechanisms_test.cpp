// Tail mechanisms of the decode simulation (scenario section `tail`): switching each one off
// moves the ITL tail in the direction it must. Each run is a quick scenario in a forked child.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/flow_tracker.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

double tail_all(const Json& s, const std::string& mech, const std::string& k) {
  return s.at("pdsim").at("tail").at("all").at(mech).at(k).get<double>();
}

TEST(ServeTailMechanisms, DpImbalanceOffLowersTheTail) {
  // Off, every layer waits for the mean rank instead of the slowest: mean <= max, strictly here
  // since the ranks hold different requests.
  const Json on = testing::quick_reference_summary("efa", {}),
             off = testing::quick_reference_summary("efa", {"tail.dp_imbalance=false"});
  EXPECT_LT(testing::metric(off, "p99_itl_ms"), testing::metric(on, "p99_itl_ms"));
  EXPECT_LT(testing::metric(off, "mean_itl_ms"), testing::metric(on, "mean_itl_ms"));
  EXPECT_GT(tail_all(on, "dp_imbalance", "fired_fraction"), 0.0);
  EXPECT_EQ(tail_all(off, "dp_imbalance", "fired_fraction"), 0.0);
}

TEST(ServeTailMechanisms, CudaGraphMissOffLowersTheTailOnlyWhenBatchesMiss) {
  // All 48 short requests at once: 3 per rank, above a capture list of {1, 2}: eager launches.
  const std::vector<std::string> burst = {"workload.request_rate=inf", "workload.input_len=1024",
                                          "decode.cuda_graph_max_bs=2"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), burst.begin(), burst.end());
    return testing::quick_reference_summary("roce", extra);
  };
  const Json on = with({}), off = with({"tail.cuda_graph_miss=false"});
  EXPECT_GT(tail_all(on, "cuda_graph_miss", "fired_fraction"), 0.0);
  EXPECT_LT(testing::metric(off, "max_itl_ms"), testing::metric(on, "max_itl_ms"));
  EXPECT_LT(testing::metric(off, "mean_itl_ms"), testing::metric(on, "mean_itl_ms"));
  // With the default capture list (up to 16) nothing misses, so the switch changes nothing.
  EXPECT_EQ(testing::quick_reference_summary("roce", {"tail.cuda_graph_miss=false"}).dump(),
            testing::quick_reference_summary("roce", {}).dump());
}

TEST(ServeTailMechanisms, SchedulerHiccupsRaiseTheMaxAndNeedProvenance) {
  EXPECT_THROW(testing::quick_reference_summary("efa", {"tail.scheduler_hiccups.enabled=true"}),
               InputError);
  const Json off = testing::quick_reference_summary("efa", {});
  const Json on = testing::quick_reference_summary(
      "efa", {"tail.scheduler_hiccups={\"enabled\":true,\"probability\":0.02,\"delay_us\":5000,"
              "\"provenance\":{\"source\":\"unit test value\"}}"});
  EXPECT_GT(tail_all(on, "scheduler_hiccup", "fired_fraction"), 0.0);
  EXPECT_DOUBLE_EQ(tail_all(on, "scheduler_hiccup", "max_us"), 5000.0);
  EXPECT_GT(testing::metric(on, "max_itl_ms"), testing::metric(off, "max_itl_ms"));
}

TEST(ServeTailMechanisms, ExpertSkewWithoutEplbSlowsTheSlowestRankAndEplbRecovers) {
  // A full decode batch (16 requests of 4 query tokens per rank: every expert gets tokens), so
  // the slowest rank is the one with the most routed tokens. Hot experts placed contiguously
  // load some ranks far above the mean; EPLB's balanced placement brings them back down.
  const std::string prov = ",\"provenance\":{\"source\":\"unit test value\"}";
  auto iteration = [&](const std::string& skew) {
    std::vector<std::string> sets;
    if (!skew.empty())
      sets.push_back("tail.expert_skew={\"enabled\":true,\"zipf_s\":1.0," + skew + prov + "}");
    Deployment d =
        build_deployment(load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json", sets));
    DecodeIterationTimer timer(d, 1);
    std::vector<RankState> ranks(16, RankState{std::vector<int>(16, 8000), 1});
    const FlowTracker none;
    Rng rng(1);
    const IterationTiming t = timer.time(IterationContext{0, ranks, none}, 0, rng);
    return std::pair{t.terms.moe_compute_us, t.mech["expert_imbalance"]};
  };
  const auto uniform = iteration(""), skew = iteration("\"eplb\":false"),
             eplb = iteration("\"eplb\":true");
  EXPECT_GT(skew.first, uniform.first);
  EXPECT_GT(skew.second, uniform.second);
  EXPECT_GT(skew.first, eplb.first);
  EXPECT_GT(skew.second, eplb.second);
  // Skew alone need not slow small batches (fewer distinct experts are active and decode expert
  // GEMMs are bound by loading each active expert's weights), so no run-level ITL assertion.
}

TEST(ServeTailMechanisms, AcceptanceVarianceOffNarrowsTpot) {
  const Json on = testing::quick_reference_summary("efa", {}),
             off = testing::quick_reference_summary("efa", {"tail.acceptance_variance=false"});
  EXPECT_LT(testing::metric(off, "std_tpot_ms"), testing::metric(on, "std_tpot_ms"));
}

TEST(ServeTailMechanisms, BatchJumpsOffAdmitsOnePerRankAndShrinksTheJump) {
  // 512-token prompts: 32 per prefill chunk, so two requests of each rank finish prefill together.
  const std::vector<std::string> base = {"workload.input_len=512", "workload.range_ratio=1.0",
                                         "workload.request_rate=inf"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), base.begin(), base.end());
    return testing::quick_reference_summary("efa", extra);
  };
  const Json on = with({}), off = with({"tail.batch_jumps=false"});
  EXPECT_LT(tail_all(off, "batch_jump", "max_us"), tail_all(on, "batch_jump", "max_us"));
  EXPECT_GE(testing::metric(off, "mean_ttft_ms"), testing::metric(on, "mean_ttft_ms"));
}

TEST(ServeTailMechanisms, FabricBackgroundOffRemovesTheA2AExcess) {
  const std::vector<std::string> base = {"fabric.fidelity=packet", "workload.request_rate=inf"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), base.begin(), base.end());
    return testing::quick_reference_summary("roce", extra);
  };
  const Json on = with({}), off = with({"tail.fabric_background=false"});
  EXPECT_GT(tail_all(on, "fabric_background", "fired_fraction"), 0.0);
  EXPECT_GT(tail_all(on, "fabric_background", "mean_when_fired_us"), 0.0);
  EXPECT_EQ(tail_all(off, "fabric_background", "fired_fraction"), 0.0);
  // Off is analytic fidelity exactly.
  EXPECT_EQ(
      off.at("mean_itl_ms"),
      testing::quick_reference_summary("roce", {"workload.request_rate=inf"}).at("mean_itl_ms"));
}

}  // namespace
}  // namespace pdsim

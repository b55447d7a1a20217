// Elastic PD (scenario section `elastic`): when a joined instance serves (its join time + the
// cold start of its own eager connections + the warm-up), that the router sends it nothing
// before, and that the prefill ranks' first KV transfer to it pays the KV library's connection.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

Deployment roce(std::vector<std::string> sets) {
  return build_deployment(
      load_scenario(data_root() + "/scenarios/glm51-2p2d-roce-quick.json", sets));
}

TEST(Elastic, ReadyAfterColdStartAndWarmup) {
  // The joined decode instance is a new NVSHMEM IBGDA EP16 group: 240 RC QPs per rank x 890 us
  // = 213.6 ms (a lower bound: no figure for DC QPs), then 30 s of warm-up.
  const Deployment d =
      roce({"decode.instances=2", "elastic.decode_joins_s=[20]", "elastic.join_warmup_s=30"});
  ASSERT_EQ(d.joins.decode_ready_s.size(), 2u);
  EXPECT_DOUBLE_EQ(d.joins.decode_ready_s[0], 0);
  EXPECT_NEAR(d.joins.decode_ready_s[1], 20 + 0.2136 + 30, 1e-9);
  EXPECT_FALSE(d.joins.decode_joined[0]);
  EXPECT_TRUE(d.joins.decode_joined[1]);
  EXPECT_FALSE(d.joins.description[0]["cold_start"]["complete"].get<bool>());
  // Mooncake over RC: one NIC pair per rank pair on ConnectX-7, 2 QPs x 24.5 ms.
  EXPECT_NEAR(d.joins.kv_connect_s, 0.049, 1e-12);
  EXPECT_NEAR(d.joins.description[0]["kv_connect_s"].get<double>(), 0.049, 1e-12);
  // Nothing joins: no description, the plain router.
  EXPECT_FALSE(roce({}).joins.any());
}

TEST(Elastic, AnAllToAllOutsideTheCatalogLeavesTheColdStartALowerBound) {
  // DeepSeek-R1 with UCCL-EP: the prefill EP16 group spans two hosts in UCCL-EP's normal mode,
  // whose connection state is not in the catalog; a joining prefill instance's cold start is
  // then incomplete and says which group it lacks.
  const Deployment d =
      build_deployment(load_scenario(data_root() + "/scenarios/dsr1/dsr1-2p2d-p5en-uccl.json",
                                     {"prefill.instances=2", "elastic.prefill_joins_s=[1]"}));
  EXPECT_FALSE(d.joins.prefill_cold.complete);
  ASSERT_FALSE(d.joins.prefill_cold.unknown.empty());
  EXPECT_EQ(d.joins.prefill_cold.unknown[0].rfind("prefill all-to-all (UCCL-EP's normal", 0), 0u)
      << d.joins.prefill_cold.unknown[0];
}

TEST(Elastic, OneInstanceServesFromTheStart) {
  const std::string e = testing::input_error_of([] { roce({"elastic.decode_joins_s=[10]"}); });
  EXPECT_NE(e.find("elastic.decode_joins_s"), std::string::npos) << e;
  EXPECT_NE(e.find("at least one serves from the start"), std::string::npos) << e;
}

TEST(Elastic, JoinedInstanceServesOnlyOnceReadyAndConnectsOnFirstTransfer) {
  const Deployment d = roce({"decode.instances=2", "elastic.decode_joins_s=[20]",
                             "workload.request_rate=1", "workload.num_prompts=48"});
  const double ready = d.joins.decode_ready_s[1];
  const SimResults r = simulate_isolated(d, 1);
  int joined = 0;
  double first_kv_s = -1;
  for (const auto& q : r.requests) {
    if (q.decode_instance != 1) continue;
    ++joined;
    EXPECT_GE(q.arrival_s, ready) << "request " << q.id;
    if (first_kv_s < 0) first_kv_s = q.kv_end_s - q.kv_start_s;
  }
  EXPECT_GT(joined, 0);
  // The first transfer to a rank of the joined instance includes the 49 ms connection.
  EXPECT_GE(first_kv_s, 0.049);
  const Json& el = r.extras["elastic"];
  ASSERT_EQ(el.size(), 1u);
  EXPECT_EQ(el[0]["requests_served"].get<int>(), joined);
  EXPECT_EQ(el[0]["before_join"]["requests"].get<int>() + el[0]["joining"]["requests"].get<int>() +
                el[0]["after_ready"]["requests"].get<int>(),
            48);
}

TEST(Elastic, TheNewestInstanceInTheClusterLeavesFirst) {
  // Three decode instances, the third joins at 20 s. At 10 s the newest in the cluster is
  // instance 1 (instance 2 has not joined); at 30 s it is instance 2.
  const Deployment d = roce(
      {"decode.instances=3", "elastic.decode_joins_s=[20]", "elastic.decode_leaves_s=[10, 30]"});
  EXPECT_EQ(d.joins.decode_leave_s[0], ElasticJoins::kNever);
  EXPECT_DOUBLE_EQ(d.joins.decode_leave_s[1], 10);
  EXPECT_DOUBLE_EQ(d.joins.decode_leave_s[2], 30);
  ASSERT_EQ(d.joins.description.size(), 3u);  // one join, two leaves
  EXPECT_EQ(d.joins.description[2]["instance"].get<int>(), 2);
  // A leave that would leave no instance serving is refused, naming the field.
  const std::string e = testing::input_error_of([] {
    roce({"decode.instances=2", "elastic.decode_leaves_s=[5, 6]"});
  });
  EXPECT_NE(e.find("elastic.decode_leaves_s"), std::string::npos) << e;
  EXPECT_NE(e.find("no other decode instance would be serving"), std::string::npos) << e;
}

TEST(Elastic, LeavingInstanceIsDrainedAndGetsNothingAfter) {
  // Round-robin fills the 16 ranks of instance 0 before instance 1: ~30 arrivals before 30 s.
  const Deployment d = roce({"decode.instances=2", "elastic.decode_leaves_s=[30]",
                             "workload.request_rate=1", "workload.num_prompts=48"});
  const SimResults r = simulate_isolated(d, 1);
  int before = 0;
  double last_finish = 0;
  for (const auto& q : r.requests) {
    if (q.decode_instance != 1) continue;
    EXPECT_LT(q.arrival_s, 30) << "request " << q.id;
    ++before;
    last_finish = std::max(last_finish, q.finish_s);
  }
  EXPECT_GT(before, 0);
  const Json& el = r.extras["elastic"];
  ASSERT_EQ(el.size(), 1u);
  EXPECT_EQ(el[0]["requests_served"].get<int>(), before);
  EXPECT_DOUBLE_EQ(el[0]["drained_s"].get<double>(), std::max(30.0, last_finish));
  EXPECT_EQ(
      el[0]["before_leave"]["requests"].get<int>() + el[0]["after_leave"]["requests"].get<int>(),
      48);
}

TEST(Elastic, AutoscalingJoinsTheStandbyWhenTheQueueGrows) {
  // One prefill instance under a burst (every request at once): the prefill queue passes 2 per
  // instance on the fourth arrival (three routed, none taken: the first stage takes its first
  // request only once the client yields), so the standby prefill instance joins then.
  const Deployment d = roce({"prefill.instances=2", "elastic.autoscale_role=prefill",
                             "elastic.autoscale_queue_per_instance=2", "workload.request_rate=inf",
                             "workload.num_prompts=24"});
  EXPECT_EQ(d.joins.prefill_ready_s[1], ElasticJoins::kNever);
  EXPECT_TRUE(d.joins.prefill_joined[1]);
  const SimResults r = simulate_isolated(d, 1);
  const Json& el = r.extras["elastic"];
  ASSERT_EQ(el.size(), 1u);
  EXPECT_EQ(el[0]["trigger"], "autoscale");
  EXPECT_DOUBLE_EQ(el[0]["queue_per_instance"].get<double>(), 3);
  const double ready = el[0]["ready_s"].get<double>();
  EXPECT_DOUBLE_EQ(ready, el[0]["join_s"].get<double>() + d.joins.prefill_cold.s);
  int joined = 0;
  for (const auto& q : r.requests) {
    if (q.prefill_instance != 1) continue;
    ++joined;
    EXPECT_GE(q.arrival_s, ready) << "request " << q.id;
  }
  EXPECT_EQ(el[0]["requests_served"].get<int>(), joined);
  // Far above any queue: the standby never joins and takes nothing.
  const SimResults idle = simulate_isolated(
      roce({"prefill.instances=2", "elastic.autoscale_role=prefill",
            "elastic.autoscale_queue_per_instance=1000", "workload.num_prompts=24"}),
      1);
  EXPECT_TRUE(idle.extras["elastic"].empty());
  for (const auto& q : idle.requests) EXPECT_EQ(q.prefill_instance, 0);
  // Scheduled joins and the rule cannot share a role.
  const std::string e = testing::input_error_of([] {
    roce({"decode.instances=2", "elastic.decode_joins_s=[5]", "elastic.autoscale_role=decode"});
  });
  EXPECT_NE(e.find("elastic.autoscale_role"), std::string::npos) << e;
}

}  // namespace
}  // namespace pdsim

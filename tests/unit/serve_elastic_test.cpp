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
  EXPECT_FALSE(d.joins.description[0]["cold_start_complete"].get<bool>());
  // Mooncake over RC: one NIC pair per rank pair on ConnectX-7, 2 QPs x 24.5 ms.
  EXPECT_NEAR(d.joins.kv_connect_s, 0.049, 1e-12);
  // Nothing joins: no description, the plain router.
  EXPECT_FALSE(roce({}).joins.any());
}

TEST(Elastic, OneInstanceServesFromTheStart) {
  const std::string e = testing::input_error_of([] { roce({"elastic.decode_joins_s=[10]"}); });
  EXPECT_NE(e.find("elastic.decode_joins_s"), std::string::npos) << e;
  EXPECT_NE(e.find("at least one instance serves from the start"), std::string::npos) << e;
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

}  // namespace
}  // namespace pdsim

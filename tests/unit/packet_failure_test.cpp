// Link failure and flap injection: RC stalls and retransmits on its one path, SRD steers around.
#include <gtest/gtest.h>

#include "packet_test_util.hpp"

namespace pdsim::packet {
namespace {
using testing::leaf_spine;
using testing::run_experiment;

// One 1000 B message from endpoint 0 to 1 on one leaf; leaf 0's port 1 is the link down to
// endpoint 1 (host links are added first). Unloaded it takes 2 · 1 086 560 ps.
Json one_packet(Json transport, Json failure) {
  return Json{
      {"topology", leaf_spine(1, 1, 2)},
      {"transport", transport},
      {"workloads", Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 1}, {"bytes", 1000}}})},
      {"failures", Json::array({failure})}};
}

TEST(PacketFailure, FlappingLinkCostsRcOneTimeoutPerDownPhaseItCatches) {
  // The link is down 0–1.5 µs and again 17–18.5 µs (period 17 µs, 2 cycles); RC t = 2 has a
  // 16.384 µs local-ACK timeout. The packet reaches the port at 1.08656 µs (down: lost); the
  // first resend at 16.384 µs reaches it at 17.47056 µs (down again: lost); the second at
  // 32.768 µs finds it up and arrives at 32.768 + 2.17312 = 34.94112 µs.
  Json flap{{"switch", 0},  {"port", 1},       {"down_us", 0},
            {"up_us", 1.5}, {"period_us", 17}, {"repeats", 2}};
  auto r = run_experiment(one_packet({{"kind", "rc"}, {"rc", {{"timeout_exponent", 2}}}}, flap));
  EXPECT_EQ(r.fct_ps(0, 0), 34'941'120);
  EXPECT_EQ(r.net->transport_counters.timeouts, 2u);
  EXPECT_EQ(r.net->fabric_counters.drops, 2u);
}

TEST(PacketFailure, RcOnADeadPathFailsAfterItsRetryCount) {
  // Down for good: the QP resends after each of 4 timeouts (16.384 µs apart) and fails once
  // the 4th exceeds retry_count = 3; the message never arrives.
  Json down{{"switch", 0}, {"port", 1}, {"down_us", 0}};
  auto r = run_experiment(
      one_packet({{"kind", "rc"}, {"rc", {{"timeout_exponent", 2}, {"retry_count", 3}}}}, down));
  EXPECT_EQ(r.net->transport_counters.timeouts, 4u);
  EXPECT_EQ(r.net->transport_counters.failed_connections, 1u);
  EXPECT_EQ(r.net->fabric_counters.drops, 4u);  // the first send and 3 resends
  EXPECT_LT(r.workloads[0]->records()[0].delivered_ps, 0);
}

TEST(PacketFailure, SrdSteersAroundADeadSpineLink) {
  // 2 leaves, 2 spines, one host per leaf: leaf 0's port 1 (to spine 0) is dead from the
  // start, so every packet sprayed onto it is lost. Spine 1 alone carries the host's full rate
  // (all links 100 Gb/s), so after its timeouts SRD must still deliver 1 MB close to line
  // rate: 245 packets, 244 · 4178 + 658 B = 1 020 090 B = 81.61 µs on the host link, plus
  // 4 links of 1 µs and the last packet's store-and-forward.
  Json e{{"topology", leaf_spine(2, 2, 1)},
         {"transport", {{"kind", "srd"}}},
         {"workloads",
          Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 1}, {"bytes", 1'000'000}}})},
         {"failures", Json::array({{{"switch", 0}, {"port", 1}, {"down_us", 0}}})}};
  auto r = run_experiment(e);
  const auto& tc = r.net->transport_counters;
  ASSERT_GE(r.workloads[0]->records()[0].delivered_ps, 0);
  EXPECT_GT(r.net->fabric_counters.drops, 0u);
  EXPECT_EQ(tc.retransmissions, tc.timeouts);  // every loss was found by its timeout
  EXPECT_GE(tc.retransmissions, r.net->fabric_counters.drops);
  Queue* dead = r.net->topo.switch_port(0, 1);
  EXPECT_EQ(dead->tx_bytes, 0u);
  // Steering: a path slot that lost a packet is re-hashed onto a fresh route. Blind spraying
  // would lose every transmission with probability 1/2, i.e. about one drop per packet (245);
  // steering must lose well under half of that.
  EXPECT_LT(r.net->fabric_counters.drops, 245u / 2);
  const double ideal_us = 81.6072 + 4 + 3 * 0.33424;
  const double fct_us = ps_to_us(r.fct_ps(0, 0));
  EXPECT_GT(fct_us, ideal_us);
  // The first losses are found one pre-sample timeout (4 base RTTs) after they were sent and
  // their resends, if they draw another dead route, one more timeout later, while the live
  // routes keep the host link busy: the flow ends within two such timeouts of the ideal.
  EXPECT_LT(fct_us, ideal_us + 2 * 4 * ps_to_us(r.net->base_rtt_ps()));
}

}  // namespace
}  // namespace pdsim::packet

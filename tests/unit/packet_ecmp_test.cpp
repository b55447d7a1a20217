// Path choice: ECMP hashing of single-path flows against per-packet spraying.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/core/stats.hpp"

#include "packet_test_util.hpp"

namespace pdsim::packet {
namespace {
using testing::leaf_spine;
using testing::run_experiment;

TEST(PacketEcmp, IdleUplinksMatchBallsIntoBins) {
  // m = 16 single-path (RC) flows from leaf 0 to leaf 1 over n = 16 spines: each flow's hash
  // picks one of leaf 0's 16 uplinks uniformly, so an uplink stays idle with probability
  // (1 − 1/n)^m = (15/16)^16 = 0.35607. Averaged over 200 seeds (std. error ≈ 0.006).
  const int n = 16, m = 16, seeds = 200;
  double idle_share = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    Json w = Json::array();
    for (int i = 0; i < m; ++i)
      w.push_back({{"kind", "flow"}, {"src", i}, {"dst", m + i}, {"bytes", 1000}});
    Json doc{{"seed", seed},
             {"topology", leaf_spine(2, n, m)},
             {"transport", {{"kind", "rc"}}},
             {"workloads", w}};
    auto r = run_experiment(doc);
    int idle = 0;
    for (const auto& l : r.net->topo.links())
      if (l.from == 0 && l.kind == "t0-t1" && l.queue->tx_bytes == 0) ++idle;
    idle_share += static_cast<double>(idle) / n;
  }
  idle_share /= seeds;
  EXPECT_NEAR(idle_share, std::pow(1.0 - 1.0 / n, m), 0.025);
}

Json permutation(const char* transport_paths) {
  // k = 8 fat-tree (128 hosts, 100 Gb/s, 1 µs hops, 35-packet queues), permutation of 1 MB.
  Json t{{"kind", "srd"}, {"mtu_bytes", 4000}, {"srd", {{"paths", std::stoi(transport_paths)}}}};
  return Json{
      {"seed", 13},
      {"topology", {{"kind", "fat_tree"}, {"k", 8}, {"link_gbps", 100}, {"hop_latency_us", 1}}},
      {"switch", {{"queue_packets", 35}}},
      {"transport", t},
      {"workloads", Json::array({{{"kind", "permutation"}, {"bytes", 1'000'000}}})}};
}

TEST(PacketEcmp, SprayingRunsAPermutationNearLineRateAndSinglePathCollides) {
  // Ideal FCT: 1 MB = 250 packets of 4000 B (4082 B on the wire) = 250 · 4082 · 80 ps =
  // 81.64 µs of serialisation, plus at most 6 links of 1 µs and the last packet's
  // store-and-forward on the 5 later links (5 · 0.32656 µs): 89.27 µs between pods.
  const double serialisation_us = 81.64, ideal_us = 81.64 + 6 + 5 * 0.32656;
  auto spray = run_experiment(permutation("64"));
  auto ecmp = run_experiment(permutation("1"));
  std::vector<double> sprayed, single;
  const auto& rs = spray.workloads[0]->records();
  for (size_t i = 0; i < rs.size(); ++i) {
    sprayed.push_back(ps_to_us(spray.fct_ps(0, i)));
    single.push_back(ps_to_us(ecmp.fct_ps(0, i)));
  }
  // No flow beats its own host link (physical floor), sprayed or not.
  EXPECT_GE(*std::min_element(sprayed.begin(), sprayed.end()), serialisation_us);
  EXPECT_GE(*std::min_element(single.begin(), single.end()), serialisation_us);
  // Sprayed: a permutation loads no link of a full-bisection fat-tree above its rate on
  // average, so only transient queueing (35 packets at most per hop) slows a flow. "Near line
  // rate" is asserted as the mean flow reaching >= 80% of the line rate less headers.
  EXPECT_LT(mean_of(sprayed), ideal_us / 0.8);
  // Single path: each flow hashes onto one of its edge switch's 4 uplinks, like the 3 other
  // flows leaving that edge, so it shares its first link with another flow with probability
  // 1 − (3/4)³ = 0.58 (balls into bins) and then gets half that link while both run: the
  // median flow takes >= 2 × 81.64 µs, the mean at least 1 + 0.58 times the serialisation.
  EXPECT_GT(percentile_of(single, 50), 2 * serialisation_us);
  EXPECT_GT(mean_of(single), (1 + 0.58) * serialisation_us);
  // The busiest hashed link carries >= 2 flows in full (certain: an edge avoids a collision
  // with probability 4!/4⁴ = 0.094, all 32 edges with 0.094³² ≈ 1e-33), so its last flow ends
  // after >= 2 × 81.64 µs.
  EXPECT_GT(*std::max_element(single.begin(), single.end()), 2 * serialisation_us);
  EXPECT_GT(percentile_of(single, 99), 2 * percentile_of(sprayed, 99));
}

}  // namespace
}  // namespace pdsim::packet

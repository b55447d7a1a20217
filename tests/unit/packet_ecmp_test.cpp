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
    for (int i = 0; i < m; ++i) w.push_back({{"kind", "flow"}, {"src", i}, {"dst", m + i}, {"bytes", 1000}});
    Json doc{{"seed", seed}, {"topology", leaf_spine(2, n, m)}, {"transport", {{"kind", "rc"}}}, {"workloads", w}};
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
  return Json{{"seed", 13},
              {"topology", {{"kind", "fat_tree"}, {"k", 8}, {"link_gbps", 100}, {"hop_latency_us", 1}}},
              {"switch", {{"queue_packets", 35}}},
              {"transport", t},
              {"workloads", Json::array({{{"kind", "permutation"}, {"bytes", 1'000'000}}})}};
}

TEST(PacketEcmp, SprayingRunsAPermutationNearLineRateAndSinglePathCollides) {
  // Ideal FCT: 1 MB = 250 packets of 4000 B (4082 B on the wire) = 250 · 4082 · 80 ps =
  // 81.64 µs of serialisation plus at most 6 hops of 1 µs (+ store-and-forward of one packet
  // per hop, 0.33 µs): ≈ 89.6 µs. A full-bisection fat-tree carries a permutation at line
  // rate only if the load is spread: sprayed, the median flow finishes within 2× ideal (our
  // SRD has no rate control, so 35-packet queues still drop and cost retransmit timeouts).
  const double ideal_us = 81.64 + 6 * (1 + 0.32656);
  auto spray = run_experiment(permutation("64"));
  std::vector<double> sprayed, single;
  const auto& rs = spray.workloads[0]->records();
  for (size_t i = 0; i < rs.size(); ++i) sprayed.push_back(ps_to_us(spray.fct_ps(0, i)));
  EXPECT_LT(percentile_of(sprayed, 50), 2 * ideal_us);
  EXPECT_GE(*std::min_element(sprayed.begin(), sprayed.end()), 81.64);  // never above line rate
  // Single path: with 128 flows hashed onto 16 core paths, some links carry two or more flows,
  // and such a flow gets at most half a link: its FCT is at least 2 × 81.64 µs.
  auto ecmp = run_experiment(permutation("1"));
  Picoseconds worst = 0;
  for (size_t i = 0; i < rs.size(); ++i) worst = std::max(worst, ecmp.fct_ps(0, i));
  EXPECT_GT(ps_to_us(worst), 2 * 81.64);
  for (size_t i = 0; i < rs.size(); ++i) single.push_back(ps_to_us(ecmp.fct_ps(0, i)));
  EXPECT_GT(percentile_of(single, 99), percentile_of(sprayed, 99));  // spraying shortens the tail
}

}  // namespace
}  // namespace pdsim::packet

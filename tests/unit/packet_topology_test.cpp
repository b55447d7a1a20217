// Topologies (rail-optimised leaf-spine, AWS network-node hierarchy) and the NCCL-style ring.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "packet_test_util.hpp"

namespace pdsim::packet {
namespace {
using testing::leaf_spine;
using testing::run_experiment;

// One 1000 B packet crosses a link in 1082 B · 80 ps + 1 µs = 1 086 560 ps (100 Gb/s, 1 µs).
constexpr Picoseconds kPerLink = 1'086'560;

// One single-packet flow per (src, dst) pair, 100 µs apart so they never meet.
Json flows(const std::vector<std::pair<int, int>>& pairs) {
  Json w = Json::array();
  for (size_t i = 0; i < pairs.size(); ++i)
    w.push_back({{"kind", "flow"},
                 {"src", pairs[i].first},
                 {"dst", pairs[i].second},
                 {"bytes", 1000},
                 {"start_us", 100.0 * static_cast<double>(i)}});
  return w;
}

TEST(PacketTopology, RailTrafficStaysOnItsLeaf) {
  // 4 nodes × 2 NICs, 2 nodes per leaf: rail r has leaves for nodes {0,1} and {2,3}; endpoint
  // = node · 2 + nic. Node 0 NIC 1 → node 1 NIC 1 is one rail leaf (2 links); → node 2 NIC 1
  // crosses a spine (4 links), as does a change of rail (node 0 NIC 0 → node 1 NIC 1).
  Json topo{{"kind", "rail"},     {"nodes", 4},       {"nodes_per_leaf", 2}, {"spines", 2},
            {"nics_per_node", 2}, {"link_gbps", 100}, {"hop_latency_us", 1}};
  Json same_leaf{{"topology", topo},
                 {"transport", {{"kind", "srd"}}},
                 {"workloads",
                  Json::array({{{"kind", "flow"}, {"src", 1}, {"dst", 3}, {"bytes", 1'000'000}}})}};
  auto r = run_experiment(same_leaf);
  uint64_t spine_bytes = 0;
  for (const auto& l : r.net->topo.links())
    if (l.kind == "t0-t1" || l.kind == "t1-t0") spine_bytes += l.queue->tx_bytes;
  EXPECT_EQ(spine_bytes, 0u);  // 1 MB and its ACKs never leave the rail leaf
  EXPECT_GE(r.workloads[0]->records()[0].delivered_ps, 0);
  auto c = run_experiment(Json{{"topology", topo},
                               {"transport", {{"kind", "srd"}}},
                               {"workloads", flows({{1, 3}, {1, 5}, {0, 3}})}});
  EXPECT_EQ(c.fct_ps(0, 0), 2 * kPerLink);  // 1 → 3: node 0 and node 1 on rail 1's first leaf
  EXPECT_EQ(c.fct_ps(1, 0), 4 * kPerLink);  // 1 → 5: node 2 sits on rail 1's second leaf
  EXPECT_EQ(c.fct_ps(2, 0), 4 * kPerLink);  // 0 → 3: rail 0 to rail 1 goes through a spine
}

TEST(PacketTopology, AwsHierarchyHopCountsFollowSharedNetworkNodes) {
  // describe-instance-topology with 3 layers: i1 and i2 share their bottom node, i3 shares
  // the middle one with i1, i4 only the top one, i5 nothing (the builder joins distinct tops
  // under one extra switch). From i1: 2, 4, 6 and 8 links.
  const auto file = std::filesystem::temp_directory_path() / "pdsim_packet_aws_topology_test.json";
  {
    std::ofstream out(file);
    out << R"({"Instances": [
      {"InstanceId": "i-1", "NetworkNodes": ["nn-a", "nn-b", "nn-c1"]},
      {"InstanceId": "i-2", "NetworkNodes": ["nn-a", "nn-b", "nn-c1"]},
      {"InstanceId": "i-3", "NetworkNodes": ["nn-a", "nn-b", "nn-c2"]},
      {"InstanceId": "i-stopped", "NetworkNodes": []},
      {"InstanceId": "i-4", "NetworkNodes": ["nn-a", "nn-d", "nn-c3"]},
      {"InstanceId": "i-5", "NetworkNodes": ["nn-e", "nn-f", "nn-c4"]}]})";
  }
  Json topo{{"kind", "aws"},
            {"file", file.string()},
            {"uplinks", {1, 1}},
            {"link_gbps", 100},
            {"hop_latency_us", 1}};
  auto r = run_experiment(Json{{"topology", topo},
                               {"transport", {{"kind", "srd"}}},
                               {"workloads", flows({{0, 1}, {0, 2}, {0, 3}, {0, 4}})}});
  std::filesystem::remove(file);
  EXPECT_EQ(r.net->nodes(), 5);  // the stopped instance has no place
  EXPECT_EQ(r.fct_ps(0, 0), 2 * kPerLink);
  EXPECT_EQ(r.fct_ps(1, 0), 4 * kPerLink);
  EXPECT_EQ(r.fct_ps(2, 0), 6 * kPerLink);
  EXPECT_EQ(r.fct_ps(3, 0), 8 * kPerLink);
}

TEST(PacketTopology, RingAllReduceTakesTwoNMinusOneOverNTimesSizeOverBandwidth) {
  // 4 nodes on one leaf, one NIC each, all-reduce of S = 4 MB: T = 2(N−1)·α + 2(N−1)/N · S/β.
  // A step moves one chunk S/N = 1 MB = 244 · 4096 + 576 B: 244 · 4178 + 658 = 1 020 090 B of
  // data, and each link of the ring also carries the 245 selective ACKs (82 B) of the reverse
  // stream, 20 090 B: β = 100 Gb/s · 1e6 / 1 040 180 = 96.14 Gb/s of goodput, 83.2144 µs a
  // step. α = 2 links of 1 µs plus the last packet's 658 B once more (0.05264 µs), since a
  // node forwards a chunk only once it has it all: T = 6 · (83.2144 + 2.05264) = 511.60 µs.
  // Without the ACK bytes it could not be faster than 6 · 83.65984 = 501.96 µs.
  Json w = Json::array({{{"kind", "ring"}, {"op", "all_reduce"}, {"bytes", 4'000'000}}});
  auto r = run_experiment(
      Json{{"topology", leaf_spine(1, 1, 4)}, {"transport", {{"kind", "srd"}}}, {"workloads", w}});
  ASSERT_EQ(r.workloads[0]->phase_us().size(), 1u);
  const double t = r.workloads[0]->phase_us()[0];
  EXPECT_GE(t, 501.959);
  EXPECT_NEAR(t, 511.60, 511.60 * 0.01);
  // All-gather takes N − 1 = 3 of those steps.
  w[0]["op"] = "all_gather";
  auto g = run_experiment(
      Json{{"topology", leaf_spine(1, 1, 4)}, {"transport", {{"kind", "srd"}}}, {"workloads", w}});
  EXPECT_NEAR(g.workloads[0]->phase_us()[0], 511.60 / 2, 511.60 / 2 * 0.01);
}

}  // namespace
}  // namespace pdsim::packet

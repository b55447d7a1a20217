// Physics of the packet engine: latency, line rate, incast, drops and their recovery cost.
#include <gtest/gtest.h>

#include "packet_test_util.hpp"
#include "sim/packet/queue.hpp"

namespace pdsim::packet {
namespace {
using testing::leaf_spine;
using testing::run_experiment;

Json experiment(Json topo, Json transport, Json workloads, Json sw = Json::object()) {
  return Json{
      {"topology", topo}, {"transport", transport}, {"switch", sw}, {"workloads", workloads}};
}

TEST(PacketPhysics, OnePacketLatencyIsSerialisationPlusPropagationPerHop) {
  // k = 4 fat-tree: host 0 (pod 0) to host 15 (pod 3) crosses 6 links
  // (host→edge→agg→core→agg→edge→host). 1000 B payload + 82 B header = 1082 B at 100 Gb/s =
  // 1082 · 80 ps = 86 560 ps per link, plus 1 µs propagation: 6 · 1 086 560 = 6 519 360 ps.
  Json topo{
      {"kind", "fat_tree"}, {"k", 4}, {"tiers", 3}, {"link_gbps", 100}, {"hop_latency_us", 1}};
  auto r = run_experiment(
      experiment(topo, {{"kind", "srd"}},
                 Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 15}, {"bytes", 1000}}})));
  EXPECT_EQ(r.fct_ps(0, 0), 6'519'360);
  // Same leaf: 2 links → 2 · 1 086 560 = 2 173 120 ps, for RC as well.
  auto rc = run_experiment(
      experiment(topo, {{"kind", "rc"}},
                 Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 1}, {"bytes", 1000}}})));
  EXPECT_EQ(rc.fct_ps(0, 0), 2'173'120);
}

TEST(PacketPhysics, LongFlowReachesLineRateLessHeaders) {
  // 10 MB over one leaf, MTU 4096: 2442 packets, 2441 full (4178 B on the wire) + one of
  // 10 000 000 − 2441·4096 = 1664 B payload (1746 B wire): 10 200 244 B · 80 ps = 816.01952 µs
  // of serialisation, plus the last packet's second hop (1746 B · 80 ps + 1 µs) and the first
  // link's 1 µs: the ideal FCT is 816.01952 + 0.13968 + 2 = 818.1592 µs (goodput 98.04 Gb/s).
  auto r = run_experiment(
      experiment(leaf_spine(1, 1, 2), {{"kind", "srd"}},
                 Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 1}, {"bytes", 10'000'000}}})));
  const double fct_us = ps_to_us(r.fct_ps(0, 0));
  EXPECT_NEAR(fct_us, 818.1592, 818.1592 * 0.002);
  EXPECT_GE(fct_us, 818.1592 - 1e-6);  // never faster than the wire
}

TEST(PacketPhysics, IncastCompletesInNTimesSizeOverRate) {
  // 8 senders × 1 MB into one host: the receiver's link carries 8 · 245 packets; 1 MB =
  // 244 · 4096 + 576, so 8 · (244 · 4178 + 658) B = 8 160 672 B · 80 ps = 652.85 µs (±2%).
  Json w = Json::array({{{"kind", "incast"}, {"senders", 8}, {"dst", 0}, {"bytes", 1'000'000}}});
  // The 16 MB buffer holds the excess, so nothing is lost, and any resend would be spurious:
  // the default (RTT-adaptive) timeout must not fire while 8 windows queue at the receiver.
  auto r = run_experiment(experiment(leaf_spine(1, 1, 9), {{"kind", "srd"}}, w));
  Picoseconds last = 0;
  for (size_t i = 0; i < 8; ++i) last = std::max(last, r.fct_ps(0, i));
  EXPECT_NEAR(ps_to_us(last), 652.85, 652.85 * 0.02);
  EXPECT_EQ(r.net->fabric_counters.drops, 0u);  // 16 MB shared buffer holds the excess
  EXPECT_EQ(r.net->transport_counters.retransmissions, 0u);
}

// A switch port that is down while the only packet of a message crosses it.
Json drop_one_packet(Json transport) {
  // Leaf 0's port 1 is the link down to endpoint 1 (host links are added first); the packet
  // reaches it at 1.08656 µs, while the port is down (0–1.5 µs).
  Json e = experiment(leaf_spine(1, 1, 2), transport,
                      Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 1}, {"bytes", 1000}}}));
  e["failures"] = Json::array({{{"switch", 0}, {"port", 1}, {"down_us", 0}, {"up_us", 1.5}}});
  return e;
}

TEST(PacketPhysics, InjectedDropCostsRcTheLocalAckTimeout) {
  // t = 2: timeout 4.096 µs · 2² = 16.384 µs after the send at 0; the resend then takes the
  // unloaded 2 · 1.08656 µs: 16 384 000 + 2 173 120 = 18 557 120 ps.
  auto r = run_experiment(drop_one_packet({{"kind", "rc"}, {"rc", {{"timeout_exponent", 2}}}}));
  EXPECT_EQ(r.fct_ps(0, 0), 18'557'120);
  EXPECT_EQ(r.net->transport_counters.timeouts, 1u);
  // NCCL's default t = 20 costs 4.096 µs · 2^20 = 4.294967296 s.
  auto d = run_experiment(drop_one_packet({{"kind", "rc"}}));
  EXPECT_EQ(d.fct_ps(0, 0), (Picoseconds{4'096'000} << 20) + 2'173'120);
}

TEST(PacketPhysics, InjectedDropCostsSrdTensOfMicroseconds) {
  // SRD resends after its retransmit timeout (25 µs here): 25 000 000 + 2 173 120 ps.
  auto r = run_experiment(drop_one_packet({{"kind", "srd"}, {"srd", {{"rto_us", 25}}}}));
  EXPECT_EQ(r.fct_ps(0, 0), 27'173'120);
  // With the derived default timeout the cost stays in the tens of µs.
  auto d = run_experiment(drop_one_packet({{"kind", "srd"}}));
  const double cost_us = ps_to_us(d.fct_ps(0, 0)) - 2.17312;
  EXPECT_GE(cost_us, 10.0);
  EXPECT_LT(cost_us, 100.0);
}

TEST(PacketPhysics, SerialisationOfAFullPauseQuantaDoesNotOverflow) {
  // 65535 quanta × 512 bit-times = 4,194,240 bytes; at 100 Gb/s one byte takes 80 ps, so
  // 335,539,200 ps (bytes × 8e12 would overflow 64 bits; the old code returned a negative delay
  // and the pause refresh re-armed itself at the same instant forever).
  EXPECT_EQ(serialisation_ps(65535 * 64, 100'000'000'000), 335'539'200);
  EXPECT_EQ(serialisation_ps(4178, 100'000'000'000), 334'240);  // 4178 × 80 ps
}

TEST(PacketPhysics, PfcPausesTheUpstreamForABoundedTime) {
  // 4 senders × 1 MB into one host, lossless with static XOFF/XON 15/12 packets (htsim; the
  // default dynamic threshold would hold all 4 MB without pausing): the leaf's ingress
  // counters pass XOFF, so it pauses the senders' NIC links; nothing is dropped. The receiver
  // link drains 4 MB in T = 4 · (244 · 4178 + 658) · 80 ps = 326.4 µs while each sender needs
  // only T/4 on its own link, so no sender can be paused for more than 3T/4 = 244.8 µs.
  Json sw{{"queue_packets", 35},
          {"pfc", {{"enabled", true}, {"xoff_packets", 15}, {"xon_packets", 12}}}};
  Json w = Json::array({{{"kind", "incast"}, {"senders", 4}, {"dst", 0}, {"bytes", 1'000'000}}});
  auto r = run_experiment(experiment(leaf_spine(1, 1, 5), {{"kind", "rc"}}, w, sw));
  EXPECT_EQ(r.net->fabric_counters.drops, 0u);
  EXPECT_GT(r.net->fabric_counters.pause_frames, 0u);
  Picoseconds max_paused = 0;
  for (const auto& l : r.net->topo.links())
    if (l.kind == "host_up") max_paused = std::max(max_paused, l.queue->paused_ps);
  EXPECT_GT(max_paused, 0);
  EXPECT_LE(ps_to_us(max_paused), 244.8);
  Picoseconds last = 0;
  for (size_t i = 0; i < 4; ++i) last = std::max(last, r.fct_ps(0, i));
  EXPECT_NEAR(ps_to_us(last), 326.4, 326.4 * 0.02);  // PFC loses no throughput
  // The same incast without PFC overflows the 35-packet queue and drops.
  sw["pfc"]["enabled"] = false;
  auto lossy = run_experiment(experiment(leaf_spine(1, 1, 5), {{"kind", "rc"}}, w, sw));
  EXPECT_GT(lossy.net->fabric_counters.drops, 0u);
}

}  // namespace
}  // namespace pdsim::packet

// DCQCN on RoCE RC: the reaction point's rate rule, and ECN acting before PFC with the defaults.
#include <gtest/gtest.h>

#include "packet_test_util.hpp"
#include "sim/packet/roce_rc.hpp"

namespace pdsim::packet {
namespace {
using testing::leaf_spine;
using testing::run_experiment;

Json rc_dcqcn(bool dcqcn) {
  return Json{{"kind", "rc"}, {"dcqcn", {{"enabled", dcqcn}}}};
}

TEST(PacketDcqcn, CnpCutsTheRateByHalfAlphaThenFastRecoveryAverages) {
  Json doc{{"topology", leaf_spine(1, 1, 2)},
           {"transport", rc_dcqcn(true)},
           {"workloads", Json::array({{{"kind", "flow"}, {"src", 0}, {"dst", 1}, {"bytes", 1}}})}};
  Network net(parse_experiment(JsonNode::from_json(doc, "test.json")));
  auto* qp = dynamic_cast<RcConnection*>(net.connect(0, 1));
  ASSERT_NE(qp, nullptr);
  auto cnp = [&] {
    Packet* p = net.pool.get();
    p->type = PacketType::cnp;
    p->conn = qp;
    qp->on_control(p);
  };
  EXPECT_DOUBLE_EQ(qp->rate_gbps(), 100);
  // DCQCN (Zhu et al., SIGCOMM 2015): on a CNP, target ← rate, rate ← rate · (1 − α/2), then
  // α ← (1 − g)·α + g. α starts at 1, so the first CNP halves 100 → 50 Gb/s and leaves α = 1.
  cnp();
  EXPECT_DOUBLE_EQ(qp->rate_gbps(), 50);
  cnp();  // target 50, rate 25
  EXPECT_DOUBLE_EQ(qp->rate_gbps(), 25);
  // One rate-update period (55 µs) without a CNP: fast recovery, rate ← (rate + target)/2 =
  // (25 + 50)/2 = 37.5; the next: (37.5 + 50)/2 = 43.75.
  net.events.run(us_to_ps(56));
  EXPECT_DOUBLE_EQ(qp->rate_gbps(), 37.5);
  net.events.run(us_to_ps(111));
  EXPECT_DOUBLE_EQ(qp->rate_gbps(), 43.75);
}

TEST(PacketDcqcn, DefaultEcnMarksBeforePfcPausesSoDcqcnAvoidsThePause) {
  // 2 senders × 8 MB into one 100 Gb/s host link, lossless, default thresholds: ECN 400 KB /
  // 1.6 MB (HPCC ns-3 at 100 Gb/s) and PFC XOFF at 1/8 of the free 16 MB buffer. Each ingress
  // holds half the receiver's queue Q, so PFC pauses once Q/2 >= (16 MB − Q)/8, i.e. at
  // Q = 3.2 MB, which the queue (growing at 200 − 100 Gb/s) reaches after 256 µs, well before
  // the 8 MB senders (653 µs each) finish. Marking starts at Q = 400 KB, after 32 µs.
  Json sw{{"ecn", {{"enabled", true}}}, {"pfc", {{"enabled", true}}}};
  Json w = Json::array({{{"kind", "incast"}, {"senders", 2}, {"dst", 0}, {"bytes", 8'000'000}}});
  auto plain = run_experiment(Json{{"topology", leaf_spine(1, 1, 3)},
                                   {"transport", rc_dcqcn(false)},
                                   {"switch", sw},
                                   {"workloads", w}});
  EXPECT_GT(plain.net->fabric_counters.ecn_marks, 0u);
  EXPECT_GT(plain.net->fabric_counters.pause_frames, 0u);  // without a reaction, PFC steps in
  // With DCQCN the marks turn into CNPs that cut both senders before the queue reaches XOFF.
  auto cc = run_experiment(Json{{"topology", leaf_spine(1, 1, 3)},
                                {"transport", rc_dcqcn(true)},
                                {"switch", sw},
                                {"workloads", w}});
  EXPECT_GT(cc.net->transport_counters.cnps, 0u);
  EXPECT_EQ(cc.net->fabric_counters.pause_frames, 0u);
  EXPECT_EQ(cc.net->fabric_counters.drops, 0u);
  int64_t max_queue = 0;
  for (const auto& l : cc.net->topo.links())
    if (l.kind == "host_down") max_queue = std::max(max_queue, l.queue->max_queue_bytes);
  EXPECT_LT(max_queue, 3'200'000);
  // The receiver link still carries both flows: 8 MB = 1953 · 4096 + 512, so 2 · (1953 · 4178 +
  // 594) = 16 320 456 B on the wire, 1305.64 µs at 100 Gb/s; DCQCN may leave it partly idle.
  Picoseconds last = 0;
  for (size_t i = 0; i < 2; ++i) last = std::max(last, cc.fct_ps(0, i));
  EXPECT_GE(ps_to_us(last), 1305.0);
}

}  // namespace
}  // namespace pdsim::packet

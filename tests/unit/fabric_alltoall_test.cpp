#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/fabric/alltoall.hpp"
#include "sim/fabric/rank_load.hpp"
#include "tests/unit/fabric_test_profile.hpp"

namespace pdsim {
namespace {

using testing::ep16_config;
using testing::hand_profile;
using testing::uniform_routing;

TEST(FabricMessages, DeepEpLowLatencyLayout) {
  A2AConfig c = ep16_config();
  // FP8: 7168 + 7168/128·4 + 16 = 7168 + 224 + 16 = 7408 B; BF16: 2·7168 = 14336 B.
  EXPECT_DOUBLE_EQ(a2a_message_bytes(c, A2APhase::dispatch), 7408.0);
  EXPECT_DOUBLE_EQ(a2a_message_bytes(c, A2APhase::combine), 14336.0);
  c.hidden = 6144;  // GLM-5.1: 6144 + 192 + 16 = 6352; 12288
  EXPECT_DOUBLE_EQ(a2a_message_bytes(c, A2APhase::dispatch), 6352.0);
  EXPECT_DOUBLE_EQ(a2a_message_bytes(c, A2APhase::combine), 12288.0);
}

TEST(FabricRouting, CountsAreConsistentAndDeterministic) {
  A2AConfig c = ep16_config();
  std::vector<int> tokens(16, 128);
  tokens[3] = 0;  // an idle rank still takes part but sends nothing
  Rng r1(7), r2(7);
  Routing a = sample_routing(c, tokens, r1), b = sample_routing(c, tokens, r2);
  EXPECT_EQ(a.copies, b.copies);
  long total = 0;
  for (int s = 0; s < 16; ++s) {
    long row = 0;
    for (int d = 0; d < 16; ++d) row += a.at(s, d);
    // top-8 without replacement: every token yields exactly 8 copies.
    EXPECT_EQ(row, tokens[static_cast<size_t>(s)] * 8L);
    total += row;
  }
  long per_expert = 0;
  for (int n : a.tokens_per_expert) per_expert += n;
  EXPECT_EQ(per_expert, total);
  // Contiguous placement: rank d's copies = tokens of experts 16d .. 16d+15.
  for (int d = 0; d < 16; ++d) {
    long col = 0, experts = 0;
    for (int s = 0; s < 16; ++s) col += a.at(s, d);
    for (int e = 16 * d; e < 16 * d + 16; ++e)
      experts += a.tokens_per_expert[static_cast<size_t>(e)];
    EXPECT_EQ(col, experts);
  }
}

TEST(FabricRouting, HalfTheCopiesCrossNodesAtEp16) {
  // With two nodes holding 128 experts each, a token's 8 distinct experts include
  // hypergeometric(256, 128, 8) remote ones: mean 4, variance 8·½·½·248/255 = 1.945. Over
  // 20 samples × 16 ranks × 128 tokens = 40960 tokens the remote fraction has standard deviation
  // sqrt(40960·1.945) / 327680 = 0.00086, so it lies within 0.005 of ½ (6 sd).
  A2AConfig c = ep16_config();
  std::vector<int> tokens(16, 128);
  Rng rng(11);
  double remote = 0, all = 0;
  for (int k = 0; k < 20; ++k) {
    Routing r = sample_routing(c, tokens, rng);
    for (int s = 0; s < 16; ++s)
      for (int d = 0; d < 16; ++d) {
        all += r.at(s, d);
        if (c.node_of(s) != c.node_of(d)) remote += r.at(s, d);
      }
  }
  EXPECT_EQ(all, 20.0 * 16 * 128 * 8);
  EXPECT_NEAR(remote / all, 0.5, 0.005);
}

TEST(FabricRankLoad, SplitsNvlinkAndRdmaAndTransposesCombine) {
  A2AConfig c = ep16_config();
  Routing r = uniform_routing(16, 1);
  r.copies[static_cast<size_t>(0 * 16 + 9)] = 5;  // rank 0 → rank 9 (other node): 5 copies
  auto d = rank_loads(c, r, A2APhase::dispatch, true);
  // Rank 0 sends 1 copy to each of ranks 0..7 (NVLink, self included) and 1+1+…+5 to 8..15.
  EXPECT_DOUBLE_EQ(d[0].nvlink_send_msgs, 8);
  EXPECT_DOUBLE_EQ(d[0].remote_send_msgs, 12);
  EXPECT_DOUBLE_EQ(d[0].remote_send_bytes, 12 * 7408.0);
  EXPECT_EQ(d[0].remote_send_peers, 8);
  EXPECT_DOUBLE_EQ(d[9].remote_recv_msgs, 12);
  auto cb = rank_loads(c, r, A2APhase::combine, true);
  // Combine returns rank 0's 5 copies from rank 9: rank 9 sends 12 remote BF16 messages.
  EXPECT_DOUBLE_EQ(cb[9].remote_send_msgs, 12);
  EXPECT_DOUBLE_EQ(cb[9].remote_send_bytes, 12 * 14336.0);
  auto pure = rank_loads(c, r, A2APhase::dispatch, false);
  EXPECT_DOUBLE_EQ(pure[0].nvlink_send_msgs, 1);  // only the copy to itself stays local
  EXPECT_DOUBLE_EQ(pure[0].remote_send_msgs, 19);
}

// Symmetric EP16 phase, 64 copies per (src, dst) pair. Per rank: 8 remote peers × 64 = 512
// RDMA messages, 8 local peers (self included) × 64 = 512 NVLink messages, the same received.
// Dispatch bytes per side: 512 × 7408 = 3 792 896 B; combine: 512 × 14336 = 7 340 032 B.
// RDMA rate 2 × 200 Gb/s × 0.9 = 45 000 B/µs; NVLink 400 000 B/µs.
constexpr double kDispatchBytes = 3792896, kCombineBytes = 7340032;
constexpr double kRdma = 45000, kNvl = 400000;

std::unique_ptr<A2ABackend> make(const std::string& name, const FabricProfile& p) {
  return A2ABackendRegistry::instance().create(name, "test", "backend", p);
}

TEST(FabricIbgda, SymmetricPhaseByHand) {
  auto b = make("ibgda", hand_profile());
  Routing r = uniform_routing(16, 64);
  // dispatch = 20 + max(issue 512×0.05 = 25.6, wire 1.2×3792896/45000 = 101.14389,
  //                     nvlink 512×0.01 + 3792896/400000 = 14.60224) = 121.14389
  A2APhaseTime d = b->phase(ep16_config(), r, A2APhase::dispatch);
  EXPECT_NEAR(d.total_us, 20 + 1.2 * kDispatchBytes / kRdma, 1e-9);
  EXPECT_NEAR(d.total_us, 121.1438933, 1e-6);
  EXPECT_EQ(d.slowest_rank, 0);  // all ranks tie; the first is reported
  EXPECT_DOUBLE_EQ(d.terms_us.at("latency_us"), 20);
  EXPECT_NEAR(d.terms_us.at("wire_us"), 101.1438933, 1e-6);
  EXPECT_NEAR(d.overlapped_us.at("issue_us"), 25.6, 1e-9);
  EXPECT_NEAR(d.overlapped_us.at("nvlink_us"), 5.12 + kDispatchBytes / kNvl, 1e-9);
  // combine = 30 + 1.2 × 7340032/45000 = 30 + 195.7341867
  A2APhaseTime c = b->phase(ep16_config(), r, A2APhase::combine);
  EXPECT_NEAR(c.total_us, 225.7341867, 1e-6);
}

TEST(FabricIbgda, IssueBoundWhenPerMessageCostIsHigh) {
  FabricProfile p = hand_profile();
  p.a2a["ibgda"]["issue_us_per_msg"] = 0.3;  // 512 × 0.3 = 153.6 > wire 101.14
  auto b = make("ibgda", p);
  A2APhaseTime d = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::dispatch);
  EXPECT_NEAR(d.total_us, 20 + 153.6, 1e-9);
  EXPECT_NEAR(d.terms_us.at("issue_us"), 153.6, 1e-9);
}

TEST(FabricCpuProxy, SymmetricPhaseByHand) {
  auto b = make("cpu-proxy", hand_profile());
  // A rank posts 512 remote copies plus 128 signals (one count per expert on the other node:
  // 8 ranks × 16 experts), so proxy = 640/4 × (0.8 + 0.125) = 148;
  // dispatch = 50 + 3 + max(148, wire 3792896/45000 = 84.2866) = 201
  A2APhaseTime d = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::dispatch);
  EXPECT_NEAR(d.total_us, 201.0, 1e-9);
  EXPECT_NEAR(d.terms_us.at("proxy_us"), 148.0, 1e-9);
  EXPECT_DOUBLE_EQ(d.terms_us.at("fifo_latency_us"), 3);
  // combine (flags: 16 local experts × 8 remote ranks = 128) = 53 + max(148, 7340032/45000 =
  // 163.1118222) = 216.1118222
  A2APhaseTime c = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::combine);
  EXPECT_NEAR(c.total_us, 53 + kCombineBytes / kRdma, 1e-9);
}

TEST(FabricNvshmemProxy, SymmetricPhaseByHand) {
  auto b = make("nvshmem-proxy", hand_profile());
  // One proxy thread: 512 remote puts + 2 × 128 staged signals (sent, and received and applied
  // for a peer) = 768 operations × 0.5 = 384; dispatch = 10 + max(384, wire 84.2866) = 394.
  A2APhaseTime d = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::dispatch);
  EXPECT_NEAR(d.total_us, 394.0, 1e-9);
  EXPECT_NEAR(d.terms_us.at("proxy_us"), 384.0, 1e-9);
  EXPECT_NEAR(d.overlapped_us.at("wire_us"), kDispatchBytes / kRdma, 1e-9);
  // combine: the same 768 operations; wire 163.1118 stays hidden: 394.
  A2APhaseTime c = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::combine);
  EXPECT_NEAR(c.total_us, 394.0, 1e-9);
  // Within one node there are no signals and no RDMA: only the NVLink branch and the latency.
  A2AConfig one_node = ep16_config();
  one_node.ep_ranks = 8;
  A2APhaseTime n = b->phase(one_node, uniform_routing(8, 64), A2APhase::dispatch);
  EXPECT_NEAR(n.total_us, 10 + 512 * 7408.0 / kNvl, 1e-9);
}

TEST(FabricBatchedProxy, SymmetricPhaseByHand) {
  auto b = make("batched-proxy", hand_profile());
  // dispatch = 25 + 40 (count exchange) + 1.1 × 3792896/45000 = 65 + 92.7152356
  A2APhaseTime d = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::dispatch);
  EXPECT_NEAR(d.total_us, 65 + 1.1 * kDispatchBytes / kRdma, 1e-9);
  EXPECT_DOUBLE_EQ(d.terms_us.at("count_exchange_us"), 40);
  // combine reuses the counts: 25 + 1.1 × 7340032/45000 = 25 + 179.4230044
  A2APhaseTime c = b->phase(ep16_config(), uniform_routing(16, 64), A2APhase::combine);
  EXPECT_NEAR(c.total_us, 25 + 1.1 * kCombineBytes / kRdma, 1e-9);
  EXPECT_DOUBLE_EQ(c.terms_us.at("count_exchange_us"), 0);
  // One node (EP8): no RDMA peer, no count exchange: 25 + 8×64×7408/400000 = 25 + 9.48224.
  A2AConfig one = ep16_config();
  one.ep_ranks = 8;
  A2APhaseTime n = b->phase(one, uniform_routing(8, 64), A2APhase::dispatch);
  EXPECT_NEAR(n.total_us, 25 + kDispatchBytes / kNvl, 1e-9);
}

TEST(FabricBackends, SlowestRankSetsThePhase) {
  auto b = make("batched-proxy", hand_profile());
  Routing r = uniform_routing(16, 64);
  r.copies[static_cast<size_t>(2 * 16 + 12)] += 64;  // rank 12 receives 64 more remote copies
  A2APhaseTime d = b->phase(ep16_config(), r, A2APhase::dispatch);
  // Rank 12 receives 576 remote messages: 65 + 1.1 × 576 × 7408 / 45000.
  EXPECT_EQ(d.slowest_rank, 2);  // rank 2 sends the same 576 and comes first
  EXPECT_NEAR(d.total_us, 65 + 1.1 * 576 * 7408 / kRdma, 1e-9);
}

TEST(FabricBackends, UnknownNameListsTheKnownOnes) {
  try {
    make("nccl-magic", hand_profile());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.expected();
    EXPECT_NE(what.find("batched-proxy"), std::string::npos);
    EXPECT_NE(what.find("cpu-proxy"), std::string::npos);
    EXPECT_NE(what.find("ibgda"), std::string::npos);
  }
}

TEST(FabricBackends, MissingOrUnsupportedBlockNamesProfileAndField) {
  FabricProfile p = hand_profile();
  p.a2a.erase("cpu-proxy");
  try {
    make("cpu-proxy", p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "hand-profile.json");
    EXPECT_EQ(e.field(), "a2a.cpu-proxy");
  }
  p = hand_profile();
  p.a2a["ibgda"].erase("issue_us_per_msg");
  try {
    make("ibgda", p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "a2a.ibgda.issue_us_per_msg");
  }
  p.a2a["ibgda"] = {{"unsupported", "no IBGDA on EFA"}};
  EXPECT_THROW(make("ibgda", p), InputError);
}

}  // namespace
}  // namespace pdsim

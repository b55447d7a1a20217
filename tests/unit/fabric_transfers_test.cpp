#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/fabric/normal_rdma_a2a.hpp"
#include "sim/fabric/transfers.hpp"
#include "tests/unit/fabric_test_profile.hpp"

namespace pdsim {
namespace {

using testing::hand_profile;

TEST(FabricTransfers, NicRateAndKvCurve) {
  FabricProfile p = hand_profile();
  // 200 Gb/s = 25e9 B/s × 0.9 = 22.5e9 B/s.
  EXPECT_DOUBLE_EQ(nic_effective_rate(p, 200), 22.5e9);
  // Curve (16 NICs): 100 GB/s at 64 KiB, 300 GB/s at 1 MiB; 256 KiB is halfway in log(x):
  // 200 GB/s with 16 NICs, 100 GB/s with 8.
  EXPECT_NEAR(kv_transfer_rate(p, 262144, 16, 200), 200e9, 1e-3);
  EXPECT_NEAR(kv_transfer_rate(p, 262144, 8, 200), 100e9, 1e-3);
  // 1 MiB with 16 NICs: 300 GB/s from the curve, under the cap 16 × 22.5 = 360 GB/s.
  EXPECT_NEAR(kv_transfer_rate(p, 1048576, 16, 200), 300e9, 1e-3);
  // Slower NICs cap it: 16 × 100 Gb/s × 0.9 = 180 GB/s.
  EXPECT_NEAR(kv_transfer_rate(p, 1048576, 16, 100), 180e9, 1e-3);
}

TEST(FabricTransfers, NvlinkRingAllGatherAndNormalA2a) {
  FabricProfile p = hand_profile();  // 400 GB/s, α = 2 µs, normal a2a 300 GB/s
  // 8 ranks, 4 MB each: 7 steps × (4e6 / 400e9 s = 10 µs) + 7 × 2 µs = 84 µs.
  EXPECT_NEAR(nvlink_allgather_us(p, 4e6, 8), 84.0, 1e-9);
  EXPECT_DOUBLE_EQ(nvlink_allgather_us(p, 4e6, 1), 0.0);
  // 30 MB per rank at 300 GB/s = 100 µs, plus α 2 µs.
  EXPECT_NEAR(nvlink_normal_a2a_us(p, 30e6, 8, A2APhase::dispatch), 102.0, 1e-9);
}

TEST(FabricProfiles, ShippedProfilesLoadAndRoundTrip) {
  for (const char* name : {"efa-p5en", "roce-cx7"}) {
    FabricProfile p = load_fabric_profile(name);
    EXPECT_EQ(p.name, name);
    EXPECT_GT(p.rdma_nic_efficiency, 0.5);
    EXPECT_LE(p.rdma_nic_efficiency, 1.0);
    FabricProfile q = fabric_profile_from_json(fabric_profile_to_json(p), "copy");
    EXPECT_EQ(fabric_profile_to_json(q), fabric_profile_to_json(p));
  }
  // EFA: 366.9 GB/s peak Mooncake write / (16 × 25 GB/s) = 0.91725.
  EXPECT_NEAR(load_fabric_profile("efa-p5en").rdma_nic_efficiency, 0.91725, 1e-12);
  // RoCE v2 framing: 4096 / (4096 + 82) = 0.980373.
  EXPECT_NEAR(load_fabric_profile("roce-cx7").rdma_nic_efficiency, 4096.0 / 4178.0, 1e-12);
}

TEST(FabricProfiles, IbgdaOnEfaIsAnInputError) {
  FabricProfile p = load_fabric_profile("efa-p5en");
  try {
    A2ABackendRegistry::instance().create("ibgda", "scenario.json", "fabric.a2a_backend", p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(e.file().find("efa-p5en.json"), std::string::npos);
    EXPECT_EQ(e.field(), "a2a.ibgda");
  }
}

TEST(FabricProfiles, MissingFieldNamesFileAndField) {
  Json doc = fabric_profile_to_json(hand_profile());
  doc.erase("nvlink_GBps");
  try {
    fabric_profile_from_json(doc, "broken.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "broken.json");
    EXPECT_EQ(e.field(), "nvlink_GBps");
  }
  doc = fabric_profile_to_json(hand_profile());
  doc["transport"] = "tcp";
  EXPECT_THROW(fabric_profile_from_json(doc, "broken.json"), InputError);
}

}  // namespace
}  // namespace pdsim

namespace pdsim::normal_rdma_test {

// DeepEP normal mode across nodes, EP16 on two nodes of 8, 256 experts, top-8, hidden 7168: a
// token misses the other node's 128 experts with probability C(128, 8) / C(256, 8) =
// Π_{i<8} (128 − i) / (256 − i) = 0.00348994 (by hand), so it crosses once with 0.99651006.
TEST(FabricNormalRdma, BytesPerRankByHand) {
  A2AConfig c = testing::ep16_config();
  double miss = 1;
  for (int i = 0; i < 8; ++i) miss *= (128.0 - i) / (256.0 - i);
  EXPECT_NEAR(miss, 0.00348994, 1e-8);
  // 1024 tokens: dispatch FP8 7168 × (1 + 4/128) = 7392 B, combine BF16 14336 B.
  EXPECT_NEAR(normal_rdma_bytes_per_rank(c, 1024, A2APhase::dispatch), 1024 * (1 - miss) * 7392.0,
              1e-6);
  EXPECT_NEAR(normal_rdma_bytes_per_rank(c, 1024, A2APhase::combine), 1024 * (1 - miss) * 14336.0,
              1e-6);
  c.ep_ranks = 8;  // one node: nothing crosses
  EXPECT_EQ(normal_rdma_bytes_per_rank(c, 1024, A2APhase::dispatch), 0.0);
  // Time = bytes / the phase's rate: 7 543 000 B at 55 GB/s = 137.145… µs.
  NormalRdmaRates r{16, 4096, 55, 58};
  EXPECT_NEAR(normal_rdma_a2a_us(r, 7543000, A2APhase::dispatch), 7543000 / 55e3, 1e-9);
  EXPECT_NEAR(normal_rdma_a2a_us(r, 7543000, A2APhase::combine), 7543000 / 58e3, 1e-9);
}

TEST(FabricNormalRdma, RatesComeFromTheBackendBlock) {
  FabricProfile p = testing::hand_profile();
  EXPECT_FALSE(normal_rdma_rates(p, "nvshmem-proxy").has_value());  // none in the block
  EXPECT_FALSE(normal_rdma_rates(p, "absent").has_value());
  p.a2a["nvshmem-proxy"]["normal_ranks"] = 16;
  p.a2a["nvshmem-proxy"]["normal_tokens_per_rank"] = 4096;
  p.a2a["nvshmem-proxy"]["normal_dispatch_rdma_GBps"] = 54.98;
  p.a2a["nvshmem-proxy"]["normal_combine_rdma_GBps"] = -1;  // impossible: named
  try {
    normal_rdma_rates(p, "nvshmem-proxy");
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "hand-profile.json");
    EXPECT_NE(e.field().find("normal_combine_rdma_GBps"), std::string::npos) << e.field();
  }
  p.a2a["nvshmem-proxy"]["normal_combine_rdma_GBps"] = 58.48;
  const auto r = normal_rdma_rates(p, "nvshmem-proxy");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->ranks, 16);
  EXPECT_DOUBLE_EQ(r->combine_GBps, 58.48);
}

}  // namespace pdsim::normal_rdma_test

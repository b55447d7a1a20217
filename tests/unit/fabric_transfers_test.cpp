#include <gtest/gtest.h>

#include "sim/core/error.hpp"
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

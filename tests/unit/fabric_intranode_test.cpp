// Measured intra-node (NVLink) section of a GPU profile: parsing, which fabric terms take it,
// and the NVLink terms' arithmetic with and without it (hand-computed values).
#include <gtest/gtest.h>

#include <fstream>

#include "fabric_test_profile.hpp"
#include "models/gpu_profile.hpp"
#include "models/hardware.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fabric/intranode_terms.hpp"
#include "sim/fabric/transfers.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {
namespace {

IntranodeProfile hand_intranode(int gpus) {
  IntranodeProfile m;
  m.present = true;
  m.gpus = gpus;
  m.p2p_GBps = 350;
  m.p2p_latency_us = 1.5;
  m.allgather = {10.0, 400.0};
  m.reduce_scatter = {12.0, 300.0};
  m.normal_dispatch_GBps = 500;
  m.normal_combine_GBps = 250;
  return m;
}

TEST(FabricIntranode, AbsentSectionKeepsFabricProfileFigures) {
  FabricProfile f = testing::hand_profile();
  GpuProfile g;
  g.name = "h200-datasheet";
  const Json src = apply_intranode_profile(f, g);
  EXPECT_EQ(f.nvlink_GBps, 400);
  EXPECT_EQ(f.nvlink_alpha_us, 2);
  EXPECT_FALSE(f.nvlink_measured.allgather);
  EXPECT_EQ(f.nvlink_measured.normal_a2a_ranks, 0);
  EXPECT_NE(src["cp_allgather"].get<std::string>().find("published"), std::string::npos);
  // Ring, 8 ranks, 4 MB per rank: 7 steps × (4e6 B / 400e3 B/µs + 2 µs) = 7 × 12 = 84 µs.
  EXPECT_NEAR(nvlink_allgather_us(f, 4e6, 8), 84.0, 1e-9);
  // Published normal a2a: 2 µs + 30e6 B / 300e3 B/µs = 102 µs, either phase.
  EXPECT_NEAR(nvlink_normal_a2a_us(f, 30e6, 8, A2APhase::combine), 102.0, 1e-9);
}

TEST(FabricIntranode, MeasuredSectionReplacesNvlinkTerms) {
  FabricProfile f = testing::hand_profile();
  GpuProfile g;
  g.name = "hand-measured";
  g.intranode = hand_intranode(8);
  const Json src = apply_intranode_profile(f, g);
  EXPECT_EQ(f.nvlink_GBps, 350);  // decode a2a intra-node copies
  EXPECT_EQ(f.nvlink_alpha_us, 1.5);
  EXPECT_NE(src["nvlink_GBps"].get<std::string>().find("measured among 8 GPUs"), std::string::npos);
  // Fit: 10 µs + 7 × 4e6 B / 400e3 B/µs = 10 + 70 = 80 µs (one synchronisation, not 7).
  EXPECT_NEAR(nvlink_allgather_us(f, 4e6, 8), 80.0, 1e-9);
  // CP2: 10 + 1 × 4e6 / 400e3 = 20 µs; a single rank moves nothing.
  EXPECT_NEAR(nvlink_allgather_us(f, 4e6, 2), 20.0, 1e-9);
  EXPECT_EQ(nvlink_allgather_us(f, 4e6, 1), 0.0);
  // EP8 = measured degree: per-phase rates, no extra latency: 30e6 / 500e3 = 60 µs dispatch,
  // 30e6 / 250e3 = 120 µs combine.
  EXPECT_NEAR(nvlink_normal_a2a_us(f, 30e6, 8, A2APhase::dispatch), 60.0, 1e-9);
  EXPECT_NEAR(nvlink_normal_a2a_us(f, 30e6, 8, A2APhase::combine), 120.0, 1e-9);
  // EP4 was not measured: published 300 GB/s plus the measured latency: 1.5 + 100 = 101.5 µs.
  EXPECT_NEAR(nvlink_normal_a2a_us(f, 30e6, 4, A2APhase::dispatch), 101.5, 1e-9);
}

TEST(FabricIntranode, TwoGpuSectionLeavesEp8OnPublishedRate) {
  FabricProfile f = testing::hand_profile();
  GpuProfile g;
  g.name = "hand-measured";
  g.intranode = hand_intranode(2);
  apply_intranode_profile(f, g);
  // Measured at EP2 only: EP8 keeps 300 GB/s, with the measured 1.5 µs: 1.5 + 100 µs.
  EXPECT_NEAR(nvlink_normal_a2a_us(f, 30e6, 8, A2APhase::dispatch), 101.5, 1e-9);
  EXPECT_NEAR(nvlink_normal_a2a_us(f, 30e6, 2, A2APhase::dispatch), 60.0, 1e-9);
}

std::string write_profile(const std::string& name, const std::string& intranode) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << R"({"schema":"pdsim.gpu_profile/1","name":"x","gpu":"h200","provenance":{},
    "gemm_bf16":{"x":[1],"eff":[1.0],"x_unit":"t"},"gemm_fp8":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "grouped_gemm_fp8":{"x":[1],"eff":[1.0],"x_unit":"t"},"hbm_stream":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "attention_decode":{"x":[1],"eff":[1.0],"x_unit":"t"},"indexer_scan":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "attention_prefill":{"x":[1],"eff":[1.0],"x_unit":"t"},"kernel_launch_us":0,"graph_kernel_us":0,
    "nvlink_GBps":0,"host_signal_rtt_us":0,"intranode":)"
                      << intranode << R"(,"measurements":{}})";
  return path;
}

TEST(FabricIntranode, ParsesSectionAndNamesBadFields) {
  const std::string good = R"({"gpus":4,"provenance":{"kind":"measured"},"p2p_GBps":355.5,
    "p2p_latency_us":1.25,"allgather":{"alpha_us":9.5,"busbw_GBps":366,"rows":[]},
    "reduce_scatter":{"alpha_us":12,"busbw_GBps":305},
    "normal_a2a":{"dispatch_GBps":467,"combine_GBps":377.5},"measurements":{}})";
  const GpuProfile g = load_gpu_profile(write_profile("intranode_ok.json", good));
  ASSERT_TRUE(g.intranode.present);
  EXPECT_EQ(g.intranode.gpus, 4);
  EXPECT_EQ(g.intranode.p2p_GBps, 355.5);
  EXPECT_EQ(g.intranode.p2p_latency_us, 1.25);
  EXPECT_EQ(g.intranode.allgather.alpha_us, 9.5);
  EXPECT_EQ(g.intranode.allgather.busbw_GBps, 366);
  EXPECT_EQ(g.intranode.reduce_scatter.busbw_GBps, 305);
  EXPECT_EQ(g.intranode.normal_combine_GBps, 377.5);

  auto field_of = [](const std::string& name, const std::string& section) {
    try {
      load_gpu_profile(write_profile(name, section));
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  std::string one_gpu = good;
  one_gpu.replace(one_gpu.find("\"gpus\":4"), 8, "\"gpus\":1");
  EXPECT_EQ(field_of("intranode_1gpu.json", one_gpu), "intranode.gpus");
  std::string no_bw = good;
  no_bw.replace(no_bw.find("\"busbw_GBps\":366"), 16, "\"busbw_GBps\":0");
  EXPECT_EQ(field_of("intranode_bw0.json", no_bw), "intranode.allgather.busbw_GBps");
  std::string extra = good;
  extra.replace(extra.find("\"gpus\""), 6, "\"nvlink_speed\":1,\"gpus\"");
  EXPECT_EQ(field_of("intranode_extra.json", extra).rfind("intranode", 0), 0u);
}

TEST(FabricIntranode, ShippedMeasuredProfileIsPhysical) {
  // Physics: no figure may beat the datasheet's 450 GB/s per direction (models/catalog/gpu).
  const GpuProfile g = load_gpu_profile("h200-measured");
  const double datasheet = load_gpu("h200").nvlink_GBps;
  ASSERT_TRUE(g.intranode.present);
  EXPECT_GE(g.intranode.gpus, 2);
  EXPECT_GT(g.intranode.p2p_GBps, 0);
  EXPECT_LE(g.intranode.p2p_GBps, datasheet);
  EXPECT_LE(g.intranode.allgather.busbw_GBps, datasheet);
  EXPECT_LE(g.intranode.reduce_scatter.busbw_GBps, datasheet);
  EXPECT_GT(g.intranode.p2p_latency_us, 0);
  EXPECT_FALSE(load_gpu_profile("h200-datasheet").intranode.present);
}

TEST(FabricIntranode, DeploymentRecordsNvlinkSources) {
  // The reference scenario uses h200-measured: the fabric's NVLink terms are its figures.
  const Deployment d =
      build_deployment(load_scenario(data_root() + "/scenarios/glm51-2p2d-efa.json"));
  EXPECT_EQ(d.fabric.nvlink_GBps, d.gpu_profile.intranode.p2p_GBps);
  EXPECT_EQ(d.fabric.nvlink_alpha_us, d.gpu_profile.intranode.p2p_latency_us);
  EXPECT_TRUE(d.fabric.nvlink_measured.allgather);
  ASSERT_TRUE(d.profiles.contains("nvlink_terms"));
  EXPECT_TRUE(d.profiles["nvlink_terms"]["provenance"].contains("prefill_normal_a2a"));
  const Deployment ds = build_deployment(load_scenario(
      data_root() + "/scenarios/glm51-2p2d-efa.json", {"gpu_profile=h200-datasheet"}));
  EXPECT_EQ(ds.fabric.nvlink_GBps, 347.0);  // efa-p5en: published NCCL all-reduce bus bandwidth
  EXPECT_FALSE(ds.fabric.nvlink_measured.allgather);
}

}  // namespace
}  // namespace pdsim

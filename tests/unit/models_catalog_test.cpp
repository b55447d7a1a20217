#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "models/gpu_profile.hpp"
#include "models/hardware.hpp"
#include "models/model_config.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

TEST(ModelsCatalog, LoadsEveryEntry) {
  for (auto name :
       {"glm-5.1-fp8", "deepseek-v3", "deepseek-v3.2", "kimi-k2", "qwen3-235b-a22b", "qwen3-8b"})
    EXPECT_NO_THROW(load_model(name)) << name;
  ModelConfig g = load_model("glm-5.1-fp8");
  EXPECT_EQ(g.num_moe_layers(), 75);
  EXPECT_TRUE(g.has_indexer());
  ModelConfig d = load_model("qwen3-8b");
  EXPECT_FALSE(d.is_moe());
  EXPECT_EQ(d.num_dense_layers(), 36);
  for (auto name : {"h200", "h100", "b200"}) EXPECT_NO_THROW(load_gpu(name)) << name;
  for (auto name : {"h200-datasheet", "h100-datasheet", "b200-datasheet"})
    EXPECT_NO_THROW(load_gpu_profile(name)) << name;
}

TEST(ModelsCatalog, InstanceNicBandwidth) {
  // p5en: 16 EFA × 200 Gb/s = 3200 Gb/s = 400e9 B/s; on-prem: 8 × 400 Gb/s = 400e9 B/s.
  EXPECT_DOUBLE_EQ(load_instance("p5en.48xlarge").node_nic_bytes_per_s(), 400e9);
  EXPECT_DOUBLE_EQ(load_instance("onprem-h200-cx7").node_nic_bytes_per_s(), 400e9);
  EXPECT_EQ(load_instance("p5.48xlarge").nics_per_node, 32);
}

TEST(ModelsCatalog, UnknownNameListsKnownOnes) {
  try {
    load_model("glm-9", "scenario.json", "model");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "scenario.json");
    EXPECT_EQ(e.field(), "model");
    EXPECT_NE(e.expected().find("glm-5.1-fp8"), std::string::npos) << e.expected();
    EXPECT_NE(e.expected().find("qwen3-8b"), std::string::npos) << e.expected();
  }
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ModelsCatalog, WrongTypeNamesFieldPath) {
  std::string path = write_temp("bad_profile.json", R"({"schema":"pdsim.gpu_profile/1",
    "name":"x","gpu":"h200","provenance":{},
    "gemm_bf16":{"x":[1],"eff":[1.0],"x_unit":"t"},"gemm_fp8":{"x":[1],"eff":["high"],"x_unit":"t"},
    "grouped_gemm_fp8":{"x":[1],"eff":[1.0],"x_unit":"t"},"hbm_stream":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "attention_decode":{"x":[1],"eff":[1.0],"x_unit":"t"},"indexer_scan":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "attention_prefill":{"x":[1],"eff":[1.0],"x_unit":"t"},"kernel_launch_us":0,"graph_kernel_us":0,
    "nvlink_GBps":0,"host_signal_rtt_us":0,"measurements":{}})");
  try {
    load_gpu_profile(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field().rfind("gemm_fp8.eff", 0), 0u) << e.field();
  }
}

TEST(ModelsCatalog, OptionalPrefillIndexerCurveIsReadAndChecked) {
  const std::string head = R"({"schema":"pdsim.gpu_profile/1",
    "name":"x","gpu":"h200","provenance":{},
    "gemm_bf16":{"x":[1],"eff":[1.0],"x_unit":"t"},"gemm_fp8":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "grouped_gemm_fp8":{"x":[1],"eff":[1.0],"x_unit":"t"},"hbm_stream":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "attention_decode":{"x":[1],"eff":[1.0],"x_unit":"t"},"indexer_scan":{"x":[1],"eff":[1.0],"x_unit":"t"},
    "attention_prefill":{"x":[1],"eff":[1.0],"x_unit":"t"},"kernel_launch_us":0,"graph_kernel_us":0,
    "nvlink_GBps":0,"host_signal_rtt_us":0,"measurements":{})";
  EXPECT_TRUE(load_gpu_profile(write_temp("p0.json", head + "}")).indexer_prefill.x.empty());
  GpuProfile p = load_gpu_profile(write_temp(
      "p1.json",
      head + R"(,"indexer_prefill":{"x":[16384,131072],"eff":[0.3,0.4],"x_unit":"t"}})"));
  EXPECT_EQ(p.indexer_prefill.x, (std::vector<double>{16384, 131072}));
  EXPECT_EQ(p.indexer_prefill.eff, (std::vector<double>{0.3, 0.4}));
  try {
    load_gpu_profile(write_temp(
        "p2.json", head + R"(,"indexer_prefill":{"x":[16384],"eff":[1.5],"x_unit":"t"}})"));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "indexer_prefill.eff[0]");
  }
}

TEST(ModelsCatalog, ValidatesModelFields) {
  std::string base = R"({"schema":"pdsim.model/1","name":"t","num_layers":2,"hidden":64,
    "dense_intermediate":128,"moe_intermediate":32,"n_routed_experts":4,"top_k":TOPK,"vocab":100,
    "attention":"ATTN","num_heads":4,"num_kv_heads":2,"head_dim":16,"max_context":10,
    "weight_dtype":"bf16","provenance":{}})";
  auto make = [&](const std::string& topk, const std::string& attn) {
    std::string s = base;
    s.replace(s.find("TOPK"), 4, topk);
    s.replace(s.find("ATTN"), 4, attn);
    return write_temp("model.json", s);
  };
  EXPECT_NO_THROW(load_model(make("2", "gqa")));
  try {
    load_model(make("5", "gqa"));  // top_k 5 > 4 experts
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "top_k");
  }
  try {
    load_model(make("2", "mha"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "attention");
  }
}

TEST(ModelsCatalog, EfficiencyCurveInterpolatesInLogX) {
  // Between (10, 0.2) and (1000, 0.8): x = 100 is halfway in log10 → 0.5. Clamped and flagged
  // outside; a single point is a constant valid everywhere.
  EfficiencyCurve c{{10, 1000}, {0.2, 0.8}};
  EXPECT_NEAR(c.at(100).eff, 0.5, 1e-12);
  EXPECT_FALSE(c.at(100).out_of_range);
  EXPECT_DOUBLE_EQ(c.at(1).eff, 0.2);
  EXPECT_TRUE(c.at(1).out_of_range);
  EXPECT_DOUBLE_EQ(c.at(1e6).eff, 0.8);
  EXPECT_TRUE(c.at(1e6).out_of_range);
  EfficiencyCurve one{{1}, {0.7}};
  EXPECT_DOUBLE_EQ(one.at(12345).eff, 0.7);
  EXPECT_FALSE(one.at(12345).out_of_range);
}

}  // namespace
}  // namespace pdsim

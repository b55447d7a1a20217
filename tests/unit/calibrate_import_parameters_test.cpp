#include <gtest/gtest.h>

#include "calibrate/a2a_rows.hpp"
#include "calibrate/import_parameters.hpp"
#include "calibrate/measurement.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

Json deepep_ll() {
  const std::string path = data_root() + "/tests/data/formats/deepep_low_latency.txt";
  return MeasurementImporterRegistry::instance()
      .create("deepep", "test", "format")
      ->parse(read_file(path), path);
}

TEST(CalibrateImportParameters, InstanceTypeAndParamsMakeTheRowsFittable) {
  Json doc = deepep_ll();
  add_import_parameters(doc, "p5en.48xlarge", {"backend=cpu-proxy", "ep=16", "num_experts=256"});
  const Json& p = doc["parameters"];
  // p5en.48xlarge: 8 GPUs, 16 EFA NICs of 200 Gb/s → 2 NICs per GPU.
  EXPECT_EQ(p["gpus_per_node"], 8);
  EXPECT_DOUBLE_EQ(p["nics_per_gpu"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(p["nic_gbps"].get<double>(), 200.0);
  EXPECT_EQ(p["backend"], "cpu-proxy");
  EXPECT_EQ(p["ep"], 16);
  EXPECT_EQ(p["tokens_per_rank"], 128);  // the tool's own [config] line, untouched
  EXPECT_EQ(doc["provenance"]["added_parameters"]["gpus_per_node"], "instance type p5en.48xlarge");
  EXPECT_EQ(doc["provenance"]["added_parameters"]["ep"], "--param");
  const auto rows = low_latency_rows(JsonNode::from_json(doc, "imported.json"));
  ASSERT_EQ(rows.size(), 2u);  // one dispatch and one combine phase
  EXPECT_EQ(rows[0].cfg.ep_ranks, 16);
  EXPECT_EQ(rows[0].cfg.gpus_per_node, 8);
  EXPECT_DOUBLE_EQ(rows[0].cfg.nics_per_gpu, 2.0);
  EXPECT_DOUBLE_EQ(rows[0].cfg.nic_gbps, 200.0);
}

TEST(CalibrateImportParameters, FileValuesWinOverTheCatalogAndParamsOverBoth) {
  Json doc = deepep_ll();
  doc["parameters"]["gpus_per_node"] = 4;
  doc["parameters"]["nic_gbps"] = 400;
  add_import_parameters(doc, "p5en.48xlarge", {"nic_gbps=100"});
  EXPECT_EQ(doc["parameters"]["gpus_per_node"], 4);
  EXPECT_EQ(doc["parameters"]["nic_gbps"], 100);
  EXPECT_FALSE(doc["provenance"]["added_parameters"].contains("gpus_per_node"));
}

TEST(CalibrateImportParameters, NothingAskedChangesNothing) {
  const Json before = deepep_ll();
  Json doc = before;
  add_import_parameters(doc, "", {});
  EXPECT_EQ(doc, before);
}

TEST(CalibrateImportParameters, BadArgumentsNameTheFlag) {
  Json doc = deepep_ll();
  try {
    add_import_parameters(doc, "", {"ep16"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--param");
  }
  try {
    add_import_parameters(doc, "", {"a.b=1"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--param");
  }
  try {
    add_import_parameters(doc, "p9.huge", {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--instance-type");
  }
}

}  // namespace
}  // namespace pdsim

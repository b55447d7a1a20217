// Imported DeepEP / pplx outputs feed the all-to-all fit directly: `backend` and `ep` come from
// the file's parameters (or context), and rows that are not one whole phase are skipped with a
// note instead of failing the fit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "calibrate/a2a_rows.hpp"
#include "calibrate/fit_profile.hpp"
#include "calibrate/measurement.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

Json import_sample(const std::string& format, const std::string& name) {
  const std::string path = data_root() + "/tests/data/formats/" + name;
  return MeasurementImporterRegistry::instance()
      .create(format, "test", "format")
      ->parse(read_file(path), path);
}

// What the user adds once per imported file: the run's EP size, backend and hardware.
void add_run_parameters(Json& doc) {
  doc["parameters"].update(Json{{"backend", "cpu-proxy"},
                                {"ep", 16},
                                {"num_experts", 256},
                                {"gpus_per_node", 8},
                                {"nics_per_gpu", 2},
                                {"nic_gbps", 200}});
}

TEST(CalibrateImportRows, DeepepLowLatencyRowsUseTheFileParameters) {
  Json doc = import_sample("deepep", "deepep_low_latency.txt");
  // "[config] num_tokens=128, hidden=7168, num_topk=8" fills the shape parameters.
  EXPECT_EQ(doc["parameters"]["tokens_per_rank"], 128);
  EXPECT_EQ(doc["parameters"]["hidden"], 7168);
  EXPECT_EQ(doc["parameters"]["top_k"], 8);
  add_run_parameters(doc);
  std::vector<std::string> notes;
  const auto rows = low_latency_rows(JsonNode::from_json(doc, "imported.json"), &notes);
  // 7 imported rows: dispatch+combine (skipped), dispatch 226 µs, combine 293 µs, then the
  // send and recv parts of both phases (4 skipped).
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].backend, "cpu-proxy");
  EXPECT_EQ(rows[0].cfg.ep_ranks, 16);
  EXPECT_EQ(rows[0].tokens_per_rank, 128);
  EXPECT_EQ(rows[0].phase, A2APhase::dispatch);
  EXPECT_DOUBLE_EQ(rows[0].latency_us, 226.0);
  EXPECT_EQ(rows[1].phase, A2APhase::combine);
  EXPECT_DOUBLE_EQ(rows[1].latency_us, 293.0);
  ASSERT_EQ(notes.size(), 5u);
  EXPECT_NE(notes[0].find("results[0]: skipped"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("dispatch+combine"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("part \"send\""), std::string::npos) << notes[1];
}

TEST(CalibrateImportRows, BackendAndEpFromContextOrAClearError) {
  Json doc = import_sample("deepep", "deepep_low_latency.txt");
  add_run_parameters(doc);
  doc["parameters"].erase("backend");
  doc["context"]["backend"] = "batched-proxy";
  auto rows = low_latency_rows(JsonNode::from_json(doc, "imported.json"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].backend, "batched-proxy");

  doc["context"].erase("backend");
  try {
    low_latency_rows(JsonNode::from_json(doc, "imported.json"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("imported.json"), std::string::npos) << m;
    EXPECT_NE(m.find("backend"), std::string::npos) << m;
    EXPECT_NE(m.find("parameters"), std::string::npos) << m;
  }
}

TEST(CalibrateImportRows, NormalModeTuningAndPplxParts) {
  Json t = import_sample("deepep", "deepep_internode.txt");
  ASSERT_EQ(t["results"].size(), 3u);
  EXPECT_EQ(t["results"][0]["mode"], "normal");  // test_internode.py runs the normal kernels
  add_run_parameters(t);
  t["parameters"]["tokens_per_rank"] = 4096;
  t["parameters"]["hidden"] = 7168;
  t["parameters"]["top_k"] = 8;
  EXPECT_TRUE(low_latency_rows(JsonNode::from_json(t, "internode.json")).empty());

  Json p = import_sample("pplx", "pplx_bench.json");
  add_run_parameters(p);
  p["parameters"].update(Json{{"tokens_per_rank", 128}, {"hidden", 7168}, {"top_k", 8}});
  std::vector<std::string> notes;
  auto rows = low_latency_rows(JsonNode::from_json(p, "pplx.json"), &notes);
  // dispatch both/send/recv + combine both: the two "both" rows are the phases (p50 120, 199).
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0].latency_us, 120.0);
  EXPECT_DOUBLE_EQ(rows[1].latency_us, 199.0);
  EXPECT_EQ(notes.size(), 2u);
}

TEST(CalibrateImportRows, FitRunsOnAnImportedFile) {
  Json doc = import_sample("deepep", "deepep_low_latency.txt");
  add_run_parameters(doc);
  const auto dir =
      std::filesystem::temp_directory_path() / ("pdsim-import-rows-" + std::to_string(::getpid()));
  const std::string imported = (dir / "deepep_ll.json").string();
  write_file_atomic(imported, doc.dump(2));
  const std::string m = data_root() + "/calibrate/published/";
  ProfileFitOptions o;
  o.name = "efa-with-import";
  o.transport = "srd";
  o.files = {m + "uccl-ep-p5en-ll.json",      m + "uccl-pr505-p5en.json",
             m + "uccl-blog-proxy-path.json", m + "uccl-blog-rtt-efa.json",
             m + "mooncake-efa-p5en.json",    m + "nccl-allreduce-p5en.json",
             m + "uccl-ep-p5en-normal.json",  imported};
  o.fixed["cpu-proxy"]["latency_us"] = 10;
  const FabricProfile p = fit_fabric_profile(o);
  std::filesystem::remove_all(dir);
  // The published cpu-proxy rows (2 UCCL-EP + 1 PR #505) plus the imported dispatch and combine.
  EXPECT_EQ(p.fit["a2a"]["cpu-proxy"]["rows"], 5);
  int skipped = 0;
  for (const auto& n : p.provenance["notes"])
    if (n.get<std::string>().find("deepep_ll.json results[") != std::string::npos) ++skipped;
  EXPECT_EQ(skipped, 5);
}

}  // namespace
}  // namespace pdsim

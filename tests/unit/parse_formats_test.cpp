// Importers of third-party tool outputs, on small samples written from formats.md
// (tests/data/formats/): values land in the documented row keys and units, and malformed input
// raises one InputError naming the file and line instead of crashing or being skipped.
#include <gtest/gtest.h>

#include "calibrate/measurement.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

Json import(const std::string& format, const std::string& name) {
  auto imp = MeasurementImporterRegistry::instance().create(format, "test", "format");
  std::string path = testing::format_sample(name);
  return imp->parse(read_file(path), path);
}

// The importer raises InputError whose message names the file and `where` (e.g. "line 11").
void expect_error(const std::string& format, const std::string& name, const std::string& where) {
  try {
    import(format, name);
    FAIL() << format << " accepted " << name;
  } catch (const InputError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
    EXPECT_NE(msg.find(where), std::string::npos) << msg;
  }
}

void expect_envelope(const Json& m, const std::string& probe) {
  EXPECT_EQ(m["schema"], kMeasurementSchema);
  EXPECT_EQ(m["probe"], probe);
  EXPECT_EQ(m["provenance"]["kind"], "measured");
  // The importer's output is itself a loadable measurement file.
  write_file_atomic(::testing::TempDir() + "/imported.json", m.dump());
  EXPECT_NO_THROW(load_measurement(::testing::TempDir() + "/imported.json"));
}

TEST(ParseFormats, NcclTestsRowsBothPlacements) {
  Json m = import("nccl-tests", "nccl_all_reduce.txt");
  expect_envelope(m, "collective");
  ASSERT_EQ(m["results"].size(), 4u);  // 2 data rows × (out-of-place, in-place)
  const Json& r = m["results"][2];     // 256 MiB out-of-place, copied from the sample
  EXPECT_EQ(r["op"], "all_reduce");
  EXPECT_EQ(r["bytes"], 268435456.0);
  EXPECT_EQ(r["placement"], "out-of-place");
  EXPECT_DOUBLE_EQ(r["time_us"], 1353.93);
  EXPECT_DOUBLE_EQ(r["algbw_GBps"], 198.26);
  EXPECT_DOUBLE_EQ(r["busbw_GBps"], 346.96);
  EXPECT_DOUBLE_EQ(m["results"][3]["time_us"], 1350.11);
  EXPECT_DOUBLE_EQ(m["parameters"]["avg_busbw_GBps"], 195.6);
  expect_error("nccl-tests", "nccl_malformed.txt", "line 11");
}

TEST(ParseFormats, PerftestLatencyAndBandwidth) {
  Json lat = import("perftest", "perftest_write_lat.txt");
  expect_envelope(lat, "pingpong");
  ASSERT_EQ(lat["results"].size(), 2u);
  EXPECT_EQ(lat["results"][0]["bytes"], 2.0);
  EXPECT_DOUBLE_EQ(lat["results"][0]["latency_us"], 1.81);  // t_typical
  EXPECT_DOUBLE_EQ(lat["results"][0]["p99_us"], 2.01);
  EXPECT_DOUBLE_EQ(lat["results"][1]["mean_us"], 7.05);

  Json bw = import("perftest", "perftest_write_bw.txt");
  expect_envelope(bw, "bandwidth");
  ASSERT_EQ(bw["results"].size(), 2u);
  // 45776.37 MiB/s × 1048576 B/MiB = 48.0 GB/s.
  EXPECT_NEAR(bw["results"][0]["GBps"], 45776.37 * 1048576 / 1e9, 1e-9);
  EXPECT_NEAR(bw["results"][0]["GBps"], 48.0, 1e-3);
  EXPECT_DOUBLE_EQ(bw["results"][0]["msg_rate_mpps"], 0.732422);
  // --report_gbits: 384 Gb/s / 8 = 48 GB/s.
  Json gb = import("perftest", "perftest_write_bw_gbits.txt");
  EXPECT_DOUBLE_EQ(gb["results"][0]["GBps"], 48.0);
  expect_error("perftest", "perftest_malformed.txt", "line 10");
}

TEST(ParseFormats, FabtestsPingpong) {
  Json m = import("fi_pingpong", "fi_pingpong.txt");
  expect_envelope(m, "pingpong");
  ASSERT_EQ(m["results"].size(), 2u);
  EXPECT_EQ(m["results"][1]["bytes"], 4096.0);       // "4k"
  EXPECT_EQ(m["results"][1]["iterations"], 1024.0);  // "1k"
  EXPECT_DOUBLE_EQ(m["results"][1]["latency_us"], 68.16);
  EXPECT_DOUBLE_EQ(m["results"][1]["time_s"], 0.14);
  expect_error("fi_pingpong", "fi_pingpong_malformed.txt", "line 2");

  Json r = import("fi_rdm_pingpong", "fi_rdm_pingpong.txt");
  ASSERT_EQ(r["results"].size(), 2u);
  EXPECT_EQ(r["results"][1]["bytes"], 1048576.0);  // "1m"
  EXPECT_DOUBLE_EQ(r["results"][1]["latency_us"], 500.0);
  expect_error("fi_rdm_pingpong", "fi_rdm_pingpong_malformed.txt", "line 2");
}

TEST(ParseFormats, DeepepLowLatencyAndInternode) {
  Json m = import("deepep", "deepep_low_latency.txt");
  expect_envelope(m, "a2a_phase");
  // 1 (dispatch+combine) + 2 (dispatch, combine) + 4 (send/recv of each) rows.
  ASSERT_EQ(m["results"].size(), 7u);
  EXPECT_EQ(m["results"][0]["phase"], "dispatch+combine");
  EXPECT_DOUBLE_EQ(m["results"][0]["latency_us"], 521.91);
  EXPECT_DOUBLE_EQ(m["results"][0]["max_us"], 526.18);
  EXPECT_EQ(m["results"][2]["phase"], "combine");
  EXPECT_DOUBLE_EQ(m["results"][2]["GBps"], 48.0);
  EXPECT_EQ(m["results"][6]["part"], "recv");
  EXPECT_DOUBLE_EQ(m["results"][6]["latency_us"], 44.3);

  Json t = import("deepep", "deepep_internode.txt");
  ASSERT_EQ(t["results"].size(), 3u);
  EXPECT_EQ(t["results"][0]["precision"], "FP8");
  EXPECT_DOUBLE_EQ(t["results"][0]["notify_us"], 48.5);
  EXPECT_DOUBLE_EQ(t["results"][0]["latency_us"], 412.0);
  EXPECT_DOUBLE_EQ(t["results"][0]["nvl_GBps"], 147.3);
  EXPECT_EQ(t["results"][1]["phase"], "combine");
  EXPECT_EQ(t["results"][2]["variant"], "uccl-ep");
  EXPECT_DOUBLE_EQ(t["results"][2]["latency_us"], 600.5);
  EXPECT_DOUBLE_EQ(t["results"][2]["notify_us"], 52.0);
  expect_error("deepep", "deepep_malformed.txt", "line 1");
}

TEST(ParseFormats, PplxStatistics) {
  Json m = import("pplx", "pplx_bench.json");
  expect_envelope(m, "a2a_phase");
  ASSERT_EQ(m["results"].size(), 4u);  // dispatch both/send/recv + combine both
  EXPECT_EQ(m["results"][0]["part"], "both");
  EXPECT_DOUBLE_EQ(m["results"][0]["latency_us"], 120.0);  // p50
  EXPECT_DOUBLE_EQ(m["results"][0]["std_us"], 4.1);
  EXPECT_DOUBLE_EQ(m["results"][3]["p99_us"], 215.0);
  expect_error("pplx", "pplx_malformed.json", "dispatch.both.p50");
}

TEST(ParseFormats, BenchServingKeepsEveryKey) {
  Json m = import("bench_serving", "bench_serving.jsonl");
  expect_envelope(m, "bench_serving");
  ASSERT_EQ(m["results"].size(), 2u);
  const Json& r = m["results"][0];
  for (const char* k :
       {"tag", "backend", "dataset_name", "request_rate", "max_concurrency", "random_range_ratio",
        "server_info", "duration", "completed", "total_output_tokens_retokenized",
        "p90_e2e_latency_ms", "std_ttft_ms", "p95_itl_ms", "concurrency", "accept_length",
        "max_output_tokens_per_s", "max_concurrent_requests", "max_itl_ms"})
    EXPECT_TRUE(r.contains(k)) << k;
  EXPECT_EQ(r["request_rate"], "Infinity");  // Python's bare Infinity token
  EXPECT_DOUBLE_EQ(r["p99_itl_ms"], 24.0);
  EXPECT_EQ(m["results"][1]["details"]["itls"][0].size(), 2u);
  EXPECT_DOUBLE_EQ(m["results"][1]["median_ttft_ms"], 0.0);  // kept as written

  Json list = import("bench_serving", "bench_serving_list.json");
  ASSERT_EQ(list["results"].size(), 2u);
  EXPECT_EQ(list["results"][0]["request_rate"], "-Infinity");
  EXPECT_EQ(list["results"][1]["note"], "Infinity stays text");
  expect_error("bench_serving", "bench_serving_malformed.jsonl", "line 2");
}

TEST(ParseFormats, AwsTopology) {
  Json m = import("aws-topology", "aws_topology.json");
  expect_envelope(m, "topology");
  ASSERT_EQ(m["results"].size(), 3u);
  EXPECT_EQ(m["results"][0]["network_nodes"].size(), 3u);
  EXPECT_EQ(m["results"][1]["network_nodes"][2], "nn-cccc4444");
  EXPECT_EQ(m["results"][0]["group_name"], "cpg-1");
  EXPECT_TRUE(m["results"][2]["network_nodes"].empty());  // stopped instance
  expect_error("aws-topology", "aws_topology_malformed.json", "Instances[0].NetworkNodes");
}

TEST(ParseFormats, EmptyAndGarbageInputsAreInputErrors) {
  for (const char* name : {"nccl-tests", "perftest", "fi_pingpong", "fi_rdm_pingpong", "deepep",
                           "pplx", "bench_serving", "aws-topology"}) {
    auto imp = MeasurementImporterRegistry::instance().create(name, "test", "format");
    for (std::string text : {std::string(), std::string("\n\n"), std::string("garbage \x01\xff"),
                             std::string("[rank 0] Dispatch bandwidth: 1e999 GB/s")})
      EXPECT_THROW(imp->parse(text, "x.txt"), InputError) << name;
  }
}

}  // namespace
}  // namespace pdsim

// Experiment files: determinism, --set overrides and clear errors for malformed input.
#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/packet/experiment_reader.hpp"
#include "sim/packet/fabric_run.hpp"
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

Json small_a2a() {
  return Json::parse(R"({
    "seed": 5,
    "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 4, "hosts_per_leaf": 4,
                 "nics_per_node": 2, "gpus_per_node": 2, "nvlink_GBps": 450, "nvlink_latency_us": 1},
    "switch": {"queue_packets": 20, "ecn": {"enabled": true}},
    "transport": {"kind": "srd", "issue": {"kind": "cpu_proxy", "delay_us": {"dist": "exponential", "mean": 3}}},
    "workloads": [{"kind": "moe_a2a", "ep_ranks": 8, "tokens_per_rank": 16, "num_experts": 32,
                   "top_k": 4, "hidden": 1024, "phase": "dispatch", "phases": 2},
                  {"kind": "kv_transfer", "src_node": 3, "dst_node": 0, "bytes": 2000000}]
  })");
}

Json strip_timing(Json s) {
  s.erase("wall_s");
  s.erase("events_per_s");
  return s;
}

TEST(PacketExperiment, SameSeedGivesIdenticalOutput) {
  const auto a = run_fabric_experiment(JsonNode::from_json(small_a2a(), "a.json"));
  const auto b = run_fabric_experiment(JsonNode::from_json(small_a2a(), "a.json"));
  EXPECT_EQ(strip_timing(a.summary).dump(), strip_timing(b.summary).dump());
  EXPECT_EQ(a.messages_csv, b.messages_csv);
  EXPECT_EQ(a.phases_csv, b.phases_csv);
  EXPECT_EQ(a.links_csv, b.links_csv);
  // 8 ranks · 16 tokens · 4 copies, minus copies to the rank itself: every copy completes.
  EXPECT_EQ(a.summary["incomplete_messages"], 0);
  EXPECT_EQ(a.summary["workloads"]["moe_a2a[0]"]["phase_us"]["count"], 2);
  const auto c = run_fabric_experiment(JsonNode::from_json(small_a2a(), "a.json"), 6);
  EXPECT_NE(a.messages_csv, c.messages_csv);  // another seed routes other tokens
}

std::string error_of(const Json& doc) {
  try {
    run_fabric_experiment(JsonNode::from_json(doc, "bad.json"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PacketExperiment, MalformedFilesGetClearErrors) {
  Json d = small_a2a();
  d["topology"].erase("kind");
  EXPECT_NE(error_of(d).find("topology.kind"), std::string::npos) << error_of(d);
  d = small_a2a();
  d["transport"]["kind"] = "tcp";
  EXPECT_NE(error_of(d).find("transport.kind"), std::string::npos);
  d = small_a2a();
  d["switch"]["ecn"]["kmn_bytes"] = 5;  // typo
  EXPECT_NE(error_of(d).find("kmn_bytes"), std::string::npos);
  d = small_a2a();
  d["workloads"][0]["ep_ranks"] = 16;  // does not fit in 4 nodes of 2 GPUs
  EXPECT_NE(error_of(d).find("workloads[0].ep_ranks"), std::string::npos) << error_of(d);
  d = small_a2a();
  d["workloads"][1]["kind"] = "teleport";
  EXPECT_NE(error_of(d).find("workloads[1].kind"), std::string::npos);
  d = small_a2a();
  d["topology"]["leaves"] = "two";
  EXPECT_NE(error_of(d).find("topology.leaves"), std::string::npos);
}

// Issue 31's reproducers: values that once crashed (k = 2^32: SIGSEGV; link_gbps = 1e-300:
// SIGFPE) or were narrowed (leaves = 2^32 + 2 ran 2 leaves) are input errors with the range.
TEST(PacketExperiment, HugeTinyAndNarrowedNumbersAreRefused) {
  auto expect = [](Json d, const std::string& field, const std::string& range) {
    const std::string e = error_of(d);
    EXPECT_NE(e.find(field), std::string::npos) << e;
    EXPECT_NE(e.find(range), std::string::npos) << e;
  };
  Json d = small_a2a();
  d["topology"] = {{"kind", "fat_tree"}, {"k", 4294967296LL}};
  expect(d, "topology.k", "[2, 128]");
  d["topology"]["k"] = 4294967300LL;  // once ran as k = 4
  expect(d, "topology.k", "[2, 128]");
  d = small_a2a();
  d["topology"]["leaves"] = 4294967298LL;  // once ran as 2
  expect(d, "topology.leaves", "[1, 65536]");
  d = small_a2a();
  d["topology"]["link_gbps"] = 1e-300;
  expect(d, "topology.link_gbps", "Gb/s");
  d = small_a2a();
  d["max_time_us"] = 1e300;  // every time-named number: sim/core/time_bound.hpp
  expect(d, "max_time_us", "expected a time of at most 1e+12 us (1e+06 s), got 1e+300 us");
  d["max_time_us"] = 2e9;  // the packet reader's own tighter bound (1000 s)
  expect(d, "max_time_us", "microseconds");
  d = small_a2a();
  d["switch"]["buffer_bytes"] = 1e300;
  expect(d, "switch.buffer_bytes", "bytes");
  d = small_a2a();
  d["transport"]["rc"] = {{"timeout_exponent", 4294967299LL}};  // once narrowed to 3
  d["transport"]["kind"] = "rc";
  expect(d, "transport.rc.timeout_exponent", "[0, 31]");
}

TEST(PacketExperiment, SetOverridesFieldsAndRejectsUnknownPaths) {
  Json d = small_a2a();
  apply_override(d, "a.json", "workloads[1].bytes=4000000");
  apply_override(d, "a.json", "transport.srd.paths=8");
  EXPECT_EQ(d["workloads"][1]["bytes"], 4000000);
  EXPECT_EQ(d["transport"]["srd"]["paths"], 8);
  EXPECT_THROW(apply_override(d, "a.json", "workloads[7].bytes=1"), InputError);
  EXPECT_THROW(apply_override(d, "a.json", "seed.x=1"), InputError);
  apply_override(d, "a.json", "topology.spinez=3");  // unknown leaf: caught by the reader
  EXPECT_NE(error_of(d).find("spinez"), std::string::npos);
}

// An experiment built in C++ from the documented defaults equals the file that names only what
// differs from them: 100 Gb/s links, 1 µs hops, ECN at 400/1600 KB, PFC headroom
// 3 × 100 Gb/s · 2 µs = 75 KB, DCQCN AI 20 Mb/s and HAI 200 Mb/s.
TEST(PacketExperiment, DefaultsBuiltInCppEqualTheReaders) {
  const Json doc = Json::parse(R"({
    "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
    "switch": {"ecn": {"enabled": true}, "pfc": {"enabled": true}},
    "transport": {"kind": "rc", "dcqcn": {"enabled": true}},
    "workloads": [{"kind": "flow", "src": 0, "dst": 3, "bytes": 1},
                  {"kind": "flow", "name": "probe", "start_us": 2.5, "src": 1, "dst": 2, "bytes": 1}]
  })");
  const ExperimentConfig read = parse_experiment(JsonNode::from_json(doc, "d.json"));
  ExperimentConfig built;
  built.topo.kind = "leaf_spine";
  built.topo.leaves = built.topo.spines = built.topo.hosts_per_leaf = 2;
  built.sw = default_switch();
  enable_ecn(built.sw, built.topo);
  enable_pfc(built.sw, built.topo);
  built.transport = "rc";
  built.tp = default_transport(built.topo);
  built.tp.dcqcn = true;
  EXPECT_EQ(read.seed, built.seed);
  EXPECT_EQ(read.max_time_ps, built.max_time_ps);
  EXPECT_EQ(read.topo, built.topo);
  EXPECT_EQ(read.sw, built.sw);
  EXPECT_EQ(read.tp, built.tp);
  EXPECT_EQ(built.max_time_ps, 10'000'000'000'000);
  EXPECT_EQ(built.topo.hop_latency_ps, 1'000'000);
  EXPECT_EQ(built.sw.buffer_bytes, 16'000'000);
  EXPECT_EQ(built.sw.ecn_kmin_bytes, 400'000);
  EXPECT_EQ(built.sw.ecn_kmax_bytes, 1'600'000);
  EXPECT_DOUBLE_EQ(built.sw.pfc_alpha, 0.125);
  EXPECT_EQ(built.sw.pfc_resume_offset_bytes, 3072);
  EXPECT_EQ(built.sw.pfc_headroom_bytes, 75'000);
  EXPECT_DOUBLE_EQ(built.tp.dcqcn_ai_gbps, 0.02);
  EXPECT_DOUBLE_EQ(built.tp.dcqcn_hai_gbps, 0.2);
  // Workloads: the reader's names and paths are what add_workload gives at the same index.
  add_workload(built, "flow", "", 0, {});
  add_workload(built, "flow", "probe", us_to_ps(2.5), {});
  ASSERT_EQ(read.workloads.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(read.workloads[i].kind, built.workloads[i].kind);
    EXPECT_EQ(read.workloads[i].name, built.workloads[i].name);
    EXPECT_EQ(read.workloads[i].path, built.workloads[i].path);
    EXPECT_EQ(read.workloads[i].start_ps, built.workloads[i].start_ps);
  }
  EXPECT_EQ(built.workloads[0].name, "flow[0]");
  EXPECT_EQ(built.workloads[1].path, "workloads[1]");
  EXPECT_EQ(built.workloads[1].start_ps, 2'500'000);
  EXPECT_EQ(file_fields(read.workloads[1]).path(), "workloads[1]");  // the file edge
}

}  // namespace
}  // namespace pdsim::packet

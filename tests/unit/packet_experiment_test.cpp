// Experiment files: determinism, --set overrides and clear errors for malformed input.
#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/packet/fabric_run.hpp"

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

}  // namespace
}  // namespace pdsim::packet

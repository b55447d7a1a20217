// The packet experiments the serving oracle builds in C++ (cluster_fabric.*,
// packet_phase_oracle.*, packet_serve_a2a.*, packet_serve_background.*) against the experiment
// file that states the same: the file reader must give the same typed config, and both must run
// the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <any>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/packet/experiment_reader.hpp"
#include "sim/packet/network.hpp"
#include "sim/packet/workload.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/cost/cluster_fabric.hpp"
#include "sim/serve/cost/packet_phase_oracle.hpp"
#include "sim/serve/cost/packet_serve_a2a.hpp"
#include "sim/serve/cost/packet_serve_background.hpp"

namespace pdsim {
namespace {

Deployment fidelity_packet_deployment(const std::string& fabric) {
  return build_deployment(load_scenario(data_root() + "/scenarios/glm51-2p2d-" + fabric + ".json",
                                        {"fabric.fidelity=packet"}));
}

// One KV flow at 700 Gb/s from prefill node 1 into decode node 0 (cluster node 2) and one PP send
// between the prefill nodes, under 8 tokens on each rank of decode node 0.
LayerQuery two_flow_query() {
  LayerQuery q;
  q.first_node = 2;
  q.tokens_per_rank = {8, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0};
  q.flows = {BackgroundFlow{1, 2, true, 700, 1e12}, BackgroundFlow{0, 1, false, 50, 1e12}};
  return q;
}

// The two reference clusters' nodes, and the documented defaults at their link rate and 1 µs
// hops: ECN Kmin/Kmax 100/400 KB per 25 Gb/s; PFC headroom 3 × rate · 2 µs; DCQCN AI 5 Mb/s and
// HAI 50 Mb/s per 25 Gb/s.
struct Cluster {
  std::string scenario;
  bool rc;
  int nics;
  double gbps;
  int64_t kmin, kmax, headroom;
  double ai, hai;
};
const Cluster kEfa{"efa", false, 16, 200, 800000, 3200000, 0, 0.04, 0.4};        // p5en.48xlarge
const Cluster kRoce{"roce", true, 8, 400, 1600000, 6400000, 300000, 0.08, 0.8};  // H200 + CX-7

// The experiment file of the same layer: one leaf per node and one spine per NIC; the
// background's bytes outlast the run (the rate for 10 ms, at least 1 MB: 875 MB at 700 Gb/s,
// 62.5 MB at 50 Gb/s).
Json layer_file(const Deployment& d, const Cluster& c) {
  const bool rc = c.rc;
  Json sw{{"ecn", {{"enabled", true}}}};
  if (rc) sw["pfc"] = Json{{"enabled", true}};
  Json tr{{"kind", rc ? "rc" : "srd"}};
  if (rc) tr["dcqcn"] = Json{{"enabled", true}};
  const auto block = static_cast<int64_t>(std::max(4096.0, d.kv_block_bytes));
  return Json{{"schema", "pdsim.fabric_experiment/1"},
              {"seed", 77},
              {"max_time_us", 1e6},
              {"topology",
               {{"kind", "leaf_spine"},
                {"leaves", 4},
                {"spines", c.nics},
                {"hosts_per_leaf", c.nics},
                {"link_gbps", c.gbps},
                {"nics_per_node", c.nics},
                {"gpus_per_node", 8},
                {"nvlink_GBps", d.fabric.nvlink_GBps},
                {"nvlink_latency_us", d.fabric.nvlink_alpha_us}}},
              {"switch", sw},
              {"transport", tr},
              {"workloads", Json::array({{{"kind", "serve_a2a"},
                                          {"name", "a2a"},
                                          {"first_node", 2},
                                          {"tokens_per_rank", two_flow_query().tokens_per_rank},
                                          {"num_experts", d.a2a.num_experts},
                                          {"top_k", d.a2a.top_k},
                                          {"hidden", d.a2a.hidden},
                                          {"phase", "dispatch"},
                                          {"then_combine", true},
                                          {"phases", 1},
                                          {"start_us", 50},
                                          {"first_nic", 0},
                                          {"nics", c.nics},
                                          {"stop_when_done", true}},
                                         {{"kind", "serve_background"},
                                          {"name", "bg0"},
                                          {"src_node", 1},
                                          {"dst_node", 2},
                                          {"bytes", 875000000},
                                          {"rate_gbps", 700},
                                          {"block_bytes", block},
                                          {"first_nic", d.scenario.prefill.kv_first_nic},
                                          {"nics", d.kv_nics}},
                                         {{"kind", "serve_background"},
                                          {"name", "bg1"},
                                          {"src_node", 0},
                                          {"dst_node", 1},
                                          {"bytes", 62500000},
                                          {"rate_gbps", 50},
                                          {"block_bytes", block},
                                          {"first_nic", 0},
                                          {"nics", c.nics}}})}};
}

void expect_same_fabric(const packet::ExperimentConfig& a, const packet::ExperimentConfig& b) {
  EXPECT_EQ(a.file, b.file);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.max_time_ps, b.max_time_ps);
  EXPECT_EQ(a.topo, b.topo);
  EXPECT_EQ(a.sw, b.sw);
  EXPECT_EQ(a.transport, b.transport);
  EXPECT_EQ(a.tp, b.tp);
  EXPECT_EQ(a.issue_cpu_proxy, b.issue_cpu_proxy);
  EXPECT_EQ(a.issue_delay, b.issue_delay);
  EXPECT_EQ(a.srd_rto_default, b.srd_rto_default);
  EXPECT_EQ(a.srd_window_default, b.srd_window_default);
  EXPECT_EQ(a.srd_penalty_default, b.srd_penalty_default);
  EXPECT_EQ(a.srd_min_rto_default, b.srd_min_rto_default);
  EXPECT_EQ(a.srd_allowance_default, b.srd_allowance_default);
  EXPECT_EQ(a.failures, b.failures);
}

std::vector<std::vector<double>> phases_of_run(const packet::ExperimentConfig& cfg) {
  packet::Network net(cfg);
  auto workloads = packet::make_workloads(net);
  for (auto& w : workloads) w->start();
  net.run();
  std::vector<std::vector<double>> out;
  for (const auto& w : workloads) out.push_back(w->phase_us());
  return out;
}

TEST(ServePacketExperiment, OracleBuildsTheConfigItsExperimentFileGives) {
  for (const Cluster& c : {kEfa, kRoce}) {
    SCOPED_TRACE(c.scenario);
    const Deployment d = fidelity_packet_deployment(c.scenario);
    const PacketPhaseOracle o(d, 1);
    const packet::ExperimentConfig built = o.layer_experiment(two_flow_query(), 77, true);
    const packet::ExperimentConfig read =
        packet::parse_experiment(JsonNode::from_json(layer_file(d, c), "packet fidelity"));
    expect_same_fabric(built, read);
    EXPECT_EQ(built.transport, c.rc ? "rc" : "srd");
    EXPECT_EQ(built.sw.buffer_bytes, 16000000);
    EXPECT_EQ(built.sw.ecn_kmin_bytes, c.kmin);
    EXPECT_EQ(built.sw.ecn_kmax_bytes, c.kmax);
    EXPECT_EQ(built.sw.pfc, c.rc);
    EXPECT_EQ(built.sw.pfc_headroom_bytes, c.headroom);
    EXPECT_EQ(built.tp.dcqcn, c.rc);
    EXPECT_DOUBLE_EQ(built.tp.dcqcn_ai_gbps, c.ai);
    EXPECT_DOUBLE_EQ(built.tp.dcqcn_hai_gbps, c.hai);
    EXPECT_EQ(built.max_time_ps, 1000000000000);
    ASSERT_EQ(built.workloads.size(), 3u);
    ASSERT_EQ(read.workloads.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(built.workloads[i].kind, read.workloads[i].kind);
      EXPECT_EQ(built.workloads[i].name, read.workloads[i].name);
      EXPECT_EQ(built.workloads[i].path, read.workloads[i].path);
      EXPECT_EQ(built.workloads[i].start_ps, read.workloads[i].start_ps);
    }
    EXPECT_EQ(built.workloads[0].path, "workloads[0]");
    EXPECT_EQ(built.workloads[0].start_ps, 50000000);
    const auto& a2a = std::any_cast<const packet::ServeA2AConfig&>(built.workloads[0].settings);
    EXPECT_EQ(a2a, packet::read_serve_a2a(packet::file_fields(read.workloads[0])));
    EXPECT_EQ(a2a.nics, c.nics);
    for (size_t i = 1; i < 3; ++i)
      EXPECT_EQ(std::any_cast<const packet::ServeBackgroundConfig&>(built.workloads[i].settings),
                packet::read_serve_background(packet::file_fields(read.workloads[i])));
    EXPECT_EQ(
        std::any_cast<const packet::ServeBackgroundConfig&>(built.workloads[1].settings).bytes,
        875000000);
    // Same config, same run: every phase of every workload, to the bit.
    const auto phases = phases_of_run(built);
    EXPECT_EQ(phases, phases_of_run(read));
    ASSERT_EQ(phases[0].size(), 2u);  // the dispatch, then its combine
  }
}

// A typed config is checked against the fabric like a file's, with the same field paths.
TEST(ServePacketExperiment, TypedConfigErrorsNameTheWorkloadField) {
  const Deployment d = fidelity_packet_deployment("efa");
  packet::ExperimentConfig cfg = cluster_experiment(d, 1, "packet fidelity");
  packet::ServeA2AConfig a2a;
  a2a.tokens_per_rank = std::vector<int>(16, 1);
  a2a.num_experts = 256;
  a2a.top_k = 8;
  a2a.hidden = 6144;
  a2a.first_nic = 8;
  a2a.nics = 16;  // 8 + 16 > the node's 16 NICs
  packet::add_serve_a2a(cfg, "a2a", 0, a2a);
  packet::Network net(cfg);
  try {
    packet::make_workloads(net);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              InputError("packet fidelity", "workloads[0].nics", "expected first_nic + nics <= 16")
                  .what());
  }
  // A generic kind reads its fields from an experiment file only.
  packet::ExperimentConfig flow = cluster_experiment(d, 1, "packet fidelity");
  packet::add_workload(flow, "flow", "", 0, {});
  EXPECT_EQ(flow.workloads[0].name, "flow[0]");
  packet::Network net2(flow);
  EXPECT_THROW(packet::make_workloads(net2), std::logic_error);
}

}  // namespace
}  // namespace pdsim

// Packet fidelity of the decode all-to-all (sim/serve/packet_phase_oracle.*): the background's
// extra latency, determinism, and the error of the memoised (quantised) answer against a direct
// packet simulation of the exact state.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numeric>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/packet/experiment_reader.hpp"
#include "sim/packet/network.hpp"
#include "sim/packet/workload.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/cost/cluster_fabric.hpp"
#include "sim/serve/cost/packet_phase_oracle.hpp"

namespace pdsim {
namespace {

Deployment packet_reference(const std::string& fabric, const std::vector<std::string>& sets = {}) {
  std::vector<std::string> all = {"fabric.fidelity=packet"};
  all.insert(all.end(), sets.begin(), sets.end());
  return build_deployment(
      load_scenario(data_root() + "/scenarios/glm51-2p2d-" + fabric + ".json", all));
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// One layer's dispatch + combine per sample.
std::vector<double> layer_us(const std::vector<LayerUs>& v) {
  std::vector<double> out;
  for (const auto& l : v) out.push_back(l.dispatch_us + l.combine_us);
  return out;
}

LayerQuery kv_query(const Deployment& d, std::vector<int> tokens, std::vector<double> rates_gbps) {
  LayerQuery q;
  q.first_node = decode_node_index(d, 0, 0);
  q.tokens_per_rank = std::move(tokens);
  for (size_t i = 0; i < rates_gbps.size(); ++i)  // one KV flow per prefill node into decode node 0
    q.flows.push_back(BackgroundFlow{prefill_node_index(d, 0, static_cast<int>(i)), q.first_node,
                                     true, rates_gbps[i], 1e12});
  return q;
}

TEST(ServeTailPacket, NoBackgroundAddsNothingAndRunsNoPacketSimulation) {
  Deployment d = packet_reference("efa");
  PacketPhaseOracle o(d, 1);
  LayerQuery q = kv_query(d, std::vector<int>(16, 8), {});
  for (const LayerUs& v : o.excess_us(q)) EXPECT_EQ(v, LayerUs{});
  EXPECT_EQ(o.stats()["packet_runs"], 0);
}

TEST(ServeTailPacket, KvOnTheDecodeNicsSlowsThePhaseMoreAtHigherRate) {
  // The KV flow shares the decode node's NICs and downlinks with the a2a: a shared resource can
  // only delay it on average, and a faster flow occupies it for a larger fraction of the time.
  for (std::string fab : {"efa", "roce"}) {
    Deployment d = packet_reference(fab);
    PacketPhaseOracle o(d, 3);
    const auto low = o.simulate(kv_query(d, std::vector<int>(16, 16), {400}), 8, 5);
    const auto high = o.simulate(kv_query(d, std::vector<int>(16, 16), {2800}), 8, 5);
    EXPECT_EQ(low.idle, high.idle) << fab << ": same seed, same routing without background";
    const double low_ex = mean(layer_us(low.loaded)) - mean(layer_us(low.idle));
    const double high_ex = mean(layer_us(high.loaded)) - mean(layer_us(high.idle));
    EXPECT_GT(low_ex, 0.0) << fab;
    EXPECT_GT(high_ex, low_ex) << fab;
  }
}

TEST(ServeTailPacket, DeterministicForASeed) {
  Deployment d = packet_reference("roce");
  PacketPhaseOracle a(d, 9), b(d, 9), c(d, 10);
  const LayerQuery q = kv_query(d, {4, 4, 0, 8, 4, 0, 0, 4, 4, 4, 0, 8, 4, 0, 0, 4}, {1500});
  EXPECT_EQ(a.excess_us(q), b.excess_us(q));
  EXPECT_NE(a.excess_us(q), c.excess_us(q));
  // The whole serving run at packet fidelity: byte-identical request records for one seed.
  Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-roce-quick.json",
                             {"fabric.fidelity=packet"});
  Deployment dq = build_deployment(s);
  SimResults r1 = simulate_isolated(dq, 4), r2 = simulate_isolated(dq, 4);
  EXPECT_EQ(results_to_json(r1).dump(), results_to_json(r2).dump());
}

// Memo error of one layer (dispatch + combine): the memoised answer (tokens rounded to the grid,
// rates to √2 steps, 8 samples) against a direct packet simulation of the exact state (24 samples,
// another seed). Both are sample means, so the bound is 3 standard errors of their difference,
// plus what the quantisation moves by design: the excess taken as proportional to the bytes in
// flight (tokens × background rate), the quantised state differs from the exact one by the
// ratio of their products, plus 2 µs (figures in sim/serve/README.md).
TEST(ServeTailPacket, MemoErrorAgainstDirectSimulationIsBounded) {
  struct Case {
    std::vector<int> tokens;
    std::vector<double> rates;
  };
  const std::vector<Case> cases = {
      {{4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {700}},
      {{4, 8, 0, 4, 4, 0, 8, 4, 4, 4, 0, 8, 4, 0, 8, 4}, {1100}},
      {std::vector<int>(16, 13), {2500}},
      {{28, 28, 28, 28, 28, 28, 28, 28, 0, 0, 0, 0, 0, 0, 0, 0}, {700, 700}},
  };
  for (std::string fab : {"efa", "roce"}) {
    Deployment d = packet_reference(fab);
    PacketPhaseOracle o(d, 1);
    for (const auto& c : cases) {
      const LayerQuery q = kv_query(d, c.tokens, c.rates);
      const std::vector<double> m = layer_us(o.excess_us(q));
      const auto direct = o.simulate(q, 24, 12345);
      const std::vector<double> loaded = layer_us(direct.loaded), idle = layer_us(direct.idle);
      std::vector<double> ex(loaded.size());
      for (size_t i = 0; i < ex.size(); ++i) ex[i] = loaded[i] - idle[i];
      const double memo = mean(m), exact = mean(ex);
      // Standard error of the difference of the two sample means.
      auto var = [](const std::vector<double>& v, double mu) {
        double s = 0;
        for (double x : v) s += (x - mu) * (x - mu);
        return s / static_cast<double>(v.size() - 1);
      };
      const double se = std::sqrt(var(m, memo) / static_cast<double>(m.size()) +
                                  var(ex, exact) / static_cast<double>(ex.size()));
      std::printf(
          "memo-error %s tokens_mean %.2f rate_gbps %.0f x%zu: direct %.2f us, memo %.2f us, error "
          "%+.2f us (se %.2f)\n",
          fab.c_str(), std::accumulate(c.tokens.begin(), c.tokens.end(), 0.0) / 16, c.rates[0],
          c.rates.size(), exact, memo, memo - exact, se);
      const LayerQuery k = o.quantise(q);
      auto sum = [](const auto& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
      double rate = 0, k_rate = 0;
      for (const auto& f : q.flows) rate += f.rate_gbps;
      for (const auto& f : k.flows) k_rate += f.rate_gbps;
      const double ratio = sum(k.tokens_per_rank) / sum(q.tokens_per_rank) * k_rate / rate;
      EXPECT_LE(std::fabs(memo - exact), 3.0 * se + 2.0 + std::fabs(exact * (ratio - 1.0)))
          << fab << " " << PacketPhaseOracle::key(o.quantise(q));
    }
  }
}

// serve_a2a with then_combine on two hosts of one leaf (one GPU and one NIC each, 100 Gb/s
// links, 1 µs hops): rank 0 has one token, top-2 of 2 experts, so its only remote copy goes to
// rank 1. Dispatch: 1000 + 1000/128·4 + 16 = 1047.25 → 1048 B, + 82 B header = 1130 B · 80 ps
// = 90 400 ps per link, 2 links + 2 µs: 2 180 800 ps. The combine then sends the copy back,
// 2 · 1000 = 2000 B + 82 B = 2082 B · 80 ps = 166 560 ps per link: 2 333 120 ps, plus the
// dispatch's ACK (82 B · 80 ps = 6 560 ps) that leaves host 1's NIC just before it.
TEST(ServeTailPacket, LayerRunSendsTheCombineBackAfterTheDispatch) {
  Json doc{{"topology",
            {{"kind", "leaf_spine"},
             {"leaves", 1},
             {"spines", 1},
             {"hosts_per_leaf", 2},
             {"link_gbps", 100},
             {"hop_latency_us", 1}}},
           {"transport", {{"kind", "srd"}}},
           {"workloads", Json::array({{{"kind", "serve_a2a"},
                                       {"tokens_per_rank", {1, 0}},
                                       {"num_experts", 2},
                                       {"top_k", 2},
                                       {"hidden", 1000},
                                       {"phase", "dispatch"},
                                       {"then_combine", true}}})}};
  packet::Network net(packet::parse_experiment(JsonNode::from_json(doc, "layer.json")));
  auto w = packet::make_workloads(net);
  w.front()->start();
  net.run();
  const std::vector<double>& us = w.front()->phase_us();
  ASSERT_EQ(us.size(), 2u);
  EXPECT_DOUBLE_EQ(us[0], 2.1808);
  EXPECT_DOUBLE_EQ(us[1], 2.33968);
  doc["workloads"][0]["phase"] = "combine";
  try {
    packet::Network bad(packet::parse_experiment(JsonNode::from_json(doc, "layer.json")));
    packet::make_workloads(bad);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("workloads[0].then_combine"), std::string::npos)
        << e.what();
  }
}

// Direction: ranks of decode node 0 only send in a dispatch, while the KV flows arrive at node 0;
// their combine returns to node 0 on the same downlinks and NIC receive side as the KV.
TEST(ServeTailPacket, KvIntoANodeSlowsTheCombineReturningToItMoreThanTheDispatch) {
  for (std::string fab : {"efa", "roce"}) {
    Deployment d = packet_reference(fab);
    PacketPhaseOracle o(d, 2);
    const auto r = o.simulate(
        kv_query(d, {28, 28, 28, 28, 28, 28, 28, 28, 0, 0, 0, 0, 0, 0, 0, 0}, {700, 700}), 8, 7);
    double dispatch = 0, combine = 0;
    for (size_t i = 0; i < r.loaded.size(); ++i) {
      dispatch += r.loaded[i].dispatch_us - r.idle[i].dispatch_us;
      combine += r.loaded[i].combine_us - r.idle[i].combine_us;
    }
    EXPECT_GT(combine, 10.0 * std::max(dispatch, 0.1)) << fab;
  }
}

TEST(ServeTailPacket, BadTopologyFileFailsBeforeSimulation) {
  EXPECT_THROW(packet_reference("efa", {"cluster.topology_file=no-such-file.json"}), InputError);
  // The test fixture lists two instances with NetworkNodes; the deployment needs four nodes.
  try {
    packet_reference(
        "efa", {"cluster.topology_file=" + data_root() + "/tests/data/formats/aws_topology.json"});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cluster.topology_file"), std::string::npos) << e.what();
  }
  // The placement what-ifs' files build.
  EXPECT_NO_THROW(packet_reference(
      "efa", {"cluster.topology_file=" + data_root() + "/scenarios/topology/2p2d-spread-l2.json"}));
}

}  // namespace
}  // namespace pdsim

// Packet fidelity of the decode all-to-all (sim/serve/packet_phase_oracle.*): the background's
// extra latency, determinism, and the error of the memoised (quantised) answer against a direct
// packet simulation of the exact state.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numeric>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/cluster_fabric.hpp"
#include "sim/serve/packet_phase_oracle.hpp"
#include "sim/serve/run_scenario.hpp"

namespace pdsim {
namespace {

Deployment reference(const std::string& fabric, const std::vector<std::string>& sets = {}) {
  std::vector<std::string> all = {"fabric.fidelity=packet"};
  all.insert(all.end(), sets.begin(), sets.end());
  return build_deployment(
      load_scenario(data_root() + "/scenarios/glm51-2p2d-" + fabric + ".json", all));
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

PhaseQuery kv_query(const Deployment& d, std::vector<int> tokens, std::vector<double> rates_gbps) {
  PhaseQuery q;
  q.phase = A2APhase::dispatch;
  q.first_node = decode_node_index(d, 0, 0);
  q.tokens_per_rank = std::move(tokens);
  for (size_t i = 0; i < rates_gbps.size(); ++i)  // one KV flow per prefill node into decode node 0
    q.flows.push_back(BackgroundFlow{prefill_node_index(d, 0, static_cast<int>(i)), q.first_node,
                                     true, rates_gbps[i], 1e12});
  return q;
}

TEST(ServeTailPacket, NoBackgroundAddsNothingAndRunsNoPacketSimulation) {
  Deployment d = reference("efa");
  PacketPhaseOracle o(d, 1);
  PhaseQuery q = kv_query(d, std::vector<int>(16, 8), {});
  for (double v : o.excess_us(q)) EXPECT_EQ(v, 0.0);
  EXPECT_EQ(o.stats()["packet_runs"], 0);
}

TEST(ServeTailPacket, KvOnTheDecodeNicsSlowsThePhaseMoreAtHigherRate) {
  // The KV flow shares the decode node's NICs and downlinks with the a2a: a shared resource can
  // only delay it on average, and a faster flow occupies it for a larger fraction of the time.
  for (std::string fab : {"efa", "roce"}) {
    Deployment d = reference(fab);
    PacketPhaseOracle o(d, 3);
    const auto low = o.simulate(kv_query(d, std::vector<int>(16, 16), {400}), 8, 5);
    const auto high = o.simulate(kv_query(d, std::vector<int>(16, 16), {2800}), 8, 5);
    EXPECT_EQ(low.idle_us, high.idle_us) << fab << ": same seed, same routing without background";
    EXPECT_GT(mean(low.loaded_us), mean(low.idle_us)) << fab;
    EXPECT_GT(mean(high.loaded_us) - mean(high.idle_us), mean(low.loaded_us) - mean(low.idle_us))
        << fab;
  }
}

TEST(ServeTailPacket, DeterministicForASeed) {
  Deployment d = reference("roce");
  PacketPhaseOracle a(d, 9), b(d, 9), c(d, 10);
  const PhaseQuery q = kv_query(d, {4, 4, 0, 8, 4, 0, 0, 4, 4, 4, 0, 8, 4, 0, 0, 4}, {1500});
  EXPECT_EQ(a.excess_us(q), b.excess_us(q));
  EXPECT_NE(a.excess_us(q), c.excess_us(q));
  // The whole serving run at packet fidelity: byte-identical request records for one seed.
  Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-roce-quick.json",
                             {"fabric.fidelity=packet"});
  Deployment dq = build_deployment(s);
  SimResults r1 = simulate_isolated(dq, 4), r2 = simulate_isolated(dq, 4);
  EXPECT_EQ(results_to_json(r1).dump(), results_to_json(r2).dump());
}

// Memo error: the memoised answer (tokens rounded up to the grid, rates to √2 steps, 8
// samples) against a direct packet simulation of the exact state (24 samples, another seed).
// Both are sample means, so the bound is 3 standard errors of their difference plus 2 µs for
// the quantisation (measured in sim/serve/README.md: largest |error| 0.64 µs, 2.1 standard
// errors, on mean excesses up to 8 µs).
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
    Deployment d = reference(fab);
    PacketPhaseOracle o(d, 1);
    for (const auto& c : cases) {
      const PhaseQuery q = kv_query(d, c.tokens, c.rates);
      const std::vector<double>& m = o.excess_us(q);
      const auto direct = o.simulate(q, 24, 12345);
      std::vector<double> ex(direct.loaded_us.size());
      for (size_t i = 0; i < ex.size(); ++i) ex[i] = direct.loaded_us[i] - direct.idle_us[i];
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
      EXPECT_LE(std::fabs(memo - exact), 3.0 * se + 2.0)
          << fab << " " << PacketPhaseOracle::key(o.quantise(q));
    }
  }
}

TEST(ServeTailPacket, BadTopologyFileFailsBeforeSimulation) {
  EXPECT_THROW(reference("efa", {"cluster.topology_file=no-such-file.json"}), InputError);
  // The test fixture lists two instances with NetworkNodes; the deployment needs four nodes.
  try {
    reference("efa",
              {"cluster.topology_file=" + data_root() + "/tests/data/formats/aws_topology.json"});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cluster.topology_file"), std::string::npos) << e.what();
  }
  // The placement what-ifs' files build.
  EXPECT_NO_THROW(reference(
      "efa", {"cluster.topology_file=" + data_root() + "/scenarios/topology/2p2d-spread-l2.json"}));
}

}  // namespace
}  // namespace pdsim

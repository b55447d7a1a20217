// Discrete ITL-tail events (issue: the tail users actually see): loss recovery by transport with
// hand-computed costs, the all-to-all's wire traffic, each event mechanism switched on and off,
// predicted failure, the worst-gap attribution and intervals over seeds.
#include <gtest/gtest.h>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/actors/decode_iteration_timer.hpp"
#include "sim/serve/actors/flow_tracker.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "sim/serve/mechanisms/loss_recovery.hpp"
#include "sim/sweep/seed_intervals.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

constexpr double kT20 = 4.096 * 1048576;  // 4.096 µs × 2^20 = 4 294 967.296 µs

LossRecovery rc(int t, int retries) {
  LossRecovery r;
  r.lib.name = "test-rc";
  r.lib.transport = "rc";
  r.lib.timeout_exponent = t;
  r.lib.retry_count = retries;
  r.rtt_us = 10;
  r.packet_us = 0.2;
  return r;
}

TEST(TailEvents, RcDropCostsTheTimeoutAndTheResendWhenNothingFollows) {
  const LossRecovery r = rc(20, 7);
  EXPECT_DOUBLE_EQ(r.lib.ack_timeout_us(), kT20);
  // The QP's last packet: local-ACK timeout, then go back N resends just that packet.
  EXPECT_DOUBLE_EQ(r.drop_us(0), kT20 + 0.2);
  // Followed by others: NAK after RTT + two packet times, independent of how many follow.
  EXPECT_DOUBLE_EQ(r.drop_us(1), 10 + 2 * 0.2);
  EXPECT_DOUBLE_EQ(r.drop_us(500), 10 + 2 * 0.2);
  // Mooncake's t = 14: 67.108864 ms.
  EXPECT_DOUBLE_EQ(rc(14, 7).drop_us(0), 67108.864 + 0.2);
}

TEST(TailEvents, RcOutageRetriesUntilThePathIsBackOrErrorsTheQp) {
  const LossRecovery r = rc(20, 7);
  // Down 5 s: the second retry (at 2T = 8.59 s) gets through.
  const auto five = r.outage(5e6);
  EXPECT_FALSE(five.failed);
  EXPECT_DOUBLE_EQ(five.stall_us, 2 * kT20 + 0.2);
  // Down 40 s needs ceil(40 / 4.295) = 10 retries > 7: the 8th timeout errors the QP at 8T.
  const auto forty = r.outage(40e6);
  EXPECT_TRUE(forty.failed);
  EXPECT_DOUBLE_EQ(forty.stall_us, 8 * kT20);
  // Exactly 7T is still recovered by the 7th retry.
  EXPECT_FALSE(r.outage(7 * kT20).failed);
}

TEST(TailEvents, SrdResendsOnlyTheLostPacketAndReroutes) {
  LossRecovery r;
  r.lib.transport = "srd";
  r.srd_rto_us = 30;
  r.packet_us = 0.2;
  EXPECT_DOUBLE_EQ(r.drop_us(0), 30.2);
  EXPECT_DOUBLE_EQ(r.drop_us(100), 30.2 - 100 * 0.2);  // hidden behind the rest of the stream
  EXPECT_DOUBLE_EQ(r.drop_us(200), 0.0);
  const auto o = r.outage(40e6);
  EXPECT_FALSE(o.failed);
  EXPECT_DOUBLE_EQ(o.stall_us, 30.2);
}

TEST(TailEvents, QpLibrariesCarryTheirOwnersDefaults) {
  const QpLibrary nv = load_qp_library("nvshmem-ibgda");
  EXPECT_EQ(nv.transport, "rc");
  EXPECT_EQ(nv.timeout_exponent, 20);
  EXPECT_EQ(nv.retry_count, 7);
  const QpLibrary uccl = load_qp_library("uccl-ep-rc");
  EXPECT_DOUBLE_EQ(uccl.ack_timeout_us(), 67108.864);
  EXPECT_EQ(load_qp_library("uccl-ep-efa").transport, "srd");
}

Deployment deploy(const std::string& fabric, std::vector<std::string> sets) {
  return build_deployment(
      load_scenario(data_root() + "/scenarios/glm51-2p2d-" + fabric + ".json", sets));
}

TEST(TailEvents, LibraryFollowsBackendAndTransport) {
  EXPECT_EQ(a2a_qp_library(deploy("roce", {})), "nvshmem-ibgda");
  EXPECT_EQ(a2a_qp_library(deploy("efa", {})), "uccl-ep-efa");
  const LossRecovery r = a2a_loss_recovery(deploy("roce", {}));
  EXPECT_GT(r.rtt_us, 0);
  // One 4096 + 82-byte packet at the instance's NIC rate.
  const Deployment d = deploy("roce", {});
  EXPECT_DOUBLE_EQ(r.packet_us, 4178.0 * 8 / (d.instance.nic_gbps * 1e3));
  EXPECT_THROW(a2a_loss_recovery(deploy("roce", {"tail.link_errors.a2a_library=uccl-ep-efa"})),
               InputError);
}

TEST(TailEvents, AllToAllTrafficOfOneIteration) {
  // No speculation, one request on one rank: 1 token, top-8, half the experts on the other
  // node → 4 remote copies per phase. Dispatch 6144 + 192 + 16 = 6352 B (2 packets), combine
  // 12288 B (3 packets); 82 B of framing per packet. Every rank signals its 2048 remote
  // (rank, expert) pairs per phase with one 82 + 8-byte write.
  const Deployment d = deploy("efa", {"decode.speculative.algorithm=none"});
  std::vector<RankState> ranks(16);
  ranks[0].contexts = {1000};
  const double L = d.model.num_moe_layers();
  const A2ATraffic t = iteration_a2a_traffic(d, ranks);
  EXPECT_DOUBLE_EQ(t.data_packets, L * 4 * (2 + 3));
  EXPECT_DOUBLE_EQ(t.data_bits, L * 4 * ((6352 + 2 * 82) + (12288 + 3 * 82)) * 8.0);
  EXPECT_DOUBLE_EQ(t.signal_packets, L * 2 * 16 * 256 * 0.5);
  EXPECT_DOUBLE_EQ(t.signal_bits, L * 2 * 2048 * 90 * 8.0);
}

TEST(TailEvents, AdmissionWorkAddsItsCostPerAdmittedRequest) {
  const std::string on =
      "tail.admission_work={\"enabled\":true,\"us_per_request\":1000,\"provenance\":{\"source\":"
      "\"unit test value\"}}";
  std::vector<RankState> ranks(16);
  ranks[0].contexts = {60000};
  const FlowTracker none;
  auto time = [&](std::vector<std::string> sets, int admitted) {
    const Deployment d = deploy("efa", std::move(sets));
    DecodeIterationTimer timer(d, 1);
    Rng rng(1);
    return timer.time(IterationContext{0, ranks, none, 0.0}, admitted, rng);
  };
  const IterationTiming base = time({}, 3), with = time({on}, 3), idle = time({on}, 0);
  EXPECT_DOUBLE_EQ(with.mech["admission_work"], 3000.0);
  // A difference of two sums of ~10^4 µs: exact up to the sums' rounding.
  EXPECT_NEAR(with.terms.total_us() - base.terms.total_us(), 3000.0, 1e-6);
  EXPECT_DOUBLE_EQ(idle.mech["admission_work"], 0.0);
}

double fired(const Json& s, const char* mech) {
  return s.at("pdsim").at("tail").at("all").at(mech).at("fired_fraction").get<double>();
}
const std::string kProv = ",\"provenance\":{\"source\":\"unit test value\"}";

TEST(TailEvents, LinkErrorsStallRoceForTheAckTimeoutAndBarelyTouchEfa) {
  const std::string ber = "tail.link_errors={\"ber\":1e-9" + kProv + "}";
  const Json roce = testing::quick_reference_summary("roce", {ber}),
             roce_off =
                 testing::quick_reference_summary("roce", {"tail.link_errors.enabled=false"});
  EXPECT_GT(fired(roce, "link_errors"), 0.0);
  EXPECT_GT(testing::metric(roce, "max_itl_ms"), kT20 / 1e3);  // a lost signal waits 4.29 s
  EXPECT_GT(testing::metric(roce, "p99_itl_ms"), testing::metric(roce_off, "p99_itl_ms"));
  EXPECT_EQ(fired(roce_off, "link_errors"), 0.0);
  const Json efa = testing::quick_reference_summary("efa", {ber}),
             efa_off = testing::quick_reference_summary("efa", {"tail.link_errors.enabled=false"});
  EXPECT_GT(fired(efa, "link_errors"), 0.0);
  EXPECT_GE(testing::metric(efa, "max_itl_ms"), testing::metric(efa_off, "max_itl_ms"));
  EXPECT_LT(testing::metric(efa, "max_itl_ms"),
            testing::metric(efa_off, "max_itl_ms") + 5.0);  // µs-scale resends
  EXPECT_THROW(testing::quick_reference_summary("roce", {"tail.link_errors={\"ber\":1e-9}"}),
               InputError);  // no source
}

TEST(TailEvents, PathFlapLongerThanTheRetriesIsAPredictedFailureOnRoceOnly) {
  const std::string flap =
      "tail.path_flaps={\"enabled\":true,\"per_link_per_hour\":3600,"
      "\"down_ms\":40000" +
      kProv + "}";
  const Json roce = testing::quick_reference_summary("roce", {flap});
  ASSERT_TRUE(roce.contains("predicted_failure"));
  EXPECT_EQ(roce["predicted_failure"]["mechanism"], "path_flap");
  EXPECT_DOUBLE_EQ(roce["predicted_failure"]["waited_s"].get<double>(), 8 * kT20 / 1e6);
  EXPECT_TRUE(roce["p99_itl_ms"].is_null());  // no latency for a run that crashed
  EXPECT_TRUE(roce["max_itl_ms"].is_null());
  const Json efa = testing::quick_reference_summary("efa", {flap}),
             efa_off = testing::quick_reference_summary("efa", {});
  EXPECT_FALSE(efa.contains("predicted_failure"));
  EXPECT_GT(fired(efa, "path_flap"), 0.0);
  EXPECT_GT(testing::metric(efa, "max_itl_ms"), testing::metric(efa_off, "max_itl_ms"));
}

TEST(TailEvents, GcPausesFromTheirPublishedProfileRaiseTheTail) {
  const Json off = testing::quick_reference_summary("efa", {});
  const Json on = testing::quick_reference_summary(
      "efa", {"tail.gc_pauses={\"enabled\":true,\"profile\":\"gc-sglang-pr9241\"}"});
  EXPECT_GT(fired(on, "gc_pause"), 0.0);
  EXPECT_GT(testing::metric(on, "max_itl_ms"),
            testing::metric(off, "max_itl_ms") + 100.0);  // pauses of 100-300 ms
  EXPECT_LE(testing::metric(on, "max_itl_ms"), testing::metric(off, "max_itl_ms") + 2 * 300.0);
  EXPECT_EQ(fired(off, "gc_pause"), 0.0);
  EXPECT_THROW(testing::quick_reference_summary("efa", {"tail.gc_pauses.enabled=true"}),
               InputError);  // no parameters' source
}

TEST(TailEvents, AdmissionWorkOffLowersTheMaximum) {
  // All 48 requests at once: admissions pile up at the first iterations.
  const std::string burst = "workload.request_rate=inf";
  const Json off = testing::quick_reference_summary("efa", {burst});
  const Json on = testing::quick_reference_summary(
      "efa", {burst,
              "tail.admission_work={\"enabled\":true,\"us_per_request\":"
              "5000" +
                  kProv + "}"});
  EXPECT_GT(fired(on, "admission_work"), 0.0);
  EXPECT_GT(testing::metric(on, "max_itl_ms"), testing::metric(off, "max_itl_ms"));
  EXPECT_EQ(fired(off, "admission_work"), 0.0);
}

TEST(TailEvents, KvOverlapIsCountedOnlyWhereTheAllToAllSawAFlow) {
  const std::vector<std::string> burst = {"workload.request_rate=inf"};
  auto overlap = [](const Json& s) { return s.at("pdsim").at("tail").at("kv_overlap"); };
  const Json analytic = overlap(testing::quick_reference_summary("roce", burst));
  EXPECT_EQ(analytic["iterations_share"].get<double>(), 0.0);  // no all-to-all oracle
  std::vector<std::string> packet = burst;
  packet.push_back("fabric.fidelity=packet");
  const Json k = overlap(testing::quick_reference_summary("roce", packet));
  EXPECT_GT(k["iterations_share"].get<double>(), 0.0);
  EXPECT_LE(k["iterations_share"].get<double>(), 1.0);
  EXPECT_LE(k["stall_p99_us"].get<double>(), k["stall_max_us"].get<double>());
  EXPECT_LE(k["stall_mean_us"].get<double>(), k["stall_max_us"].get<double>());
}

TEST(TailEvents, ProfileValuesChangedWithoutASourceAreRefused) {
  // The resolved scenario carries the profile's values apart (from_profile): naming another
  // profile takes that profile's values and source.
  Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-roce.json",
                             {"tail.link_errors.profile=link-ber-ib-spec"});
  const auto link = [](const Scenario& x) -> const LinkErrorsSection& {
    return x.tail.get<LinkErrorsSection>("link_errors");
  };
  EXPECT_DOUBLE_EQ(link(s).params.ber, 1e-12);
  EXPECT_DOUBLE_EQ(
      link(load_scenario(data_root() + "/scenarios/glm51-2p2d-roce.json", {})).params.ber, 1e-15);
  // A value that differs from the profile's cannot keep the profile's provenance.
  const Json prov = link(s).provenance;
  EXPECT_THROW(load_scenario(data_root() + "/scenarios/glm51-2p2d-roce.json",
                             {"tail.link_errors={\"profile\":\"link-ber-ib-spec\",\"ber\":1e-6,"
                              "\"provenance\":" +
                              prov.dump() + "}"}),
               InputError);
}

TEST(TailEvents, WorstGapNamesTheMechanismThatExceedsTheMedianMost) {
  const Json summary = {{"pdsim",
                         {{"tail",
                           {{"median",
                             {{"itl_us", 10000.0},
                              {"mechanisms_us", {{"a", 1000.0}, {"b", 0.0}}},
                              {"terms_us", {{"host", 2000.0}, {"scheduler", 0.0}}}}},
                            {"max",
                             {{"itl_us", 14000.0},
                              {"mechanisms_us", {{"a", 500.0}, {"b", 3000.0}}},
                              {"terms_us", {{"host", 2000.0}, {"scheduler", 3000.0}}}}}}}}}};
  const Json w = worst_gap(summary);
  EXPECT_EQ(w["mechanism"], "b");
  EXPECT_DOUBLE_EQ(w["mechanism_added_ms"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(w["share_of_excess"].get<double>(), 0.75);
  EXPECT_EQ(w["term"], "scheduler");
  EXPECT_DOUBLE_EQ(w["excess_over_median_ms"].get<double>(), 4.0);
}

TEST(TailEvents, SeedIntervalsBracketEachSeedAndCountWorstGaps) {
  const Scenario s = load_scenario(data_root() + "/scenarios/glm51-2p2d-efa-quick.json", {});
  const std::vector<Json> iv = seed_intervals({s}, 7, 3, 2);
  ASSERT_EQ(iv.size(), 1u);
  const Json& m = iv[0]["metrics"]["max_itl_ms"];
  EXPECT_LE(m["min"].get<double>(), m["p05"].get<double>());
  EXPECT_LE(m["p05"].get<double>(), m["p50"].get<double>());
  EXPECT_LE(m["p50"].get<double>(), m["p95"].get<double>());
  EXPECT_LE(m["p95"].get<double>(), m["max"].get<double>());
  int seeds = 0;
  for (const auto& [k, c] : iv[0]["worst_gap"]["mechanisms"].items()) seeds += c.get<int>();
  EXPECT_EQ(seeds, 3);
  // Seed 8's own run is one of the three.
  const Json eight = bench_summary(simulate_isolated(build_deployment(s), 8));
  EXPECT_EQ(iv[0]["worst_gap"]["by_seed"][1]["max_itl_ms"].get<double>(),
            eight["pdsim"]["tail"]["max"]["itl_us"].get<double>() / 1e3);
}

}  // namespace
}  // namespace pdsim

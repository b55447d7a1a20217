#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "sim/core/error.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "sim/serve/entities/results_transport.hpp"
#include "tests/unit/reports_fixture.hpp"

namespace pdsim {
namespace {

using testing_fixture::hand_results;

TEST(ReportsSummary, CountsAndThroughputsOverCompletedRequestsOnly) {
  const Json s = bench_summary(hand_results());
  EXPECT_EQ(s["completed"], 3);             // r3 did not complete
  EXPECT_EQ(s["total_input_tokens"], 600);  // 100 + 200 + 300
  EXPECT_EQ(s["total_output_tokens"], 11);  // 4 + 1 + 6
  EXPECT_DOUBLE_EQ(s["duration"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(s["request_throughput"].get<double>(), 1.2);  // 3 / 2.5
  EXPECT_DOUBLE_EQ(s["input_throughput"].get<double>(), 240.0);  // 600 / 2.5
  EXPECT_DOUBLE_EQ(s["output_throughput"].get<double>(), 4.4);   // 11 / 2.5
  EXPECT_DOUBLE_EQ(s["total_throughput"].get<double>(), 244.4);  // 611 / 2.5
  // concurrency = Σ e2e / duration = (1.75 + 2.0 + 1.25) / 2.5
  EXPECT_DOUBLE_EQ(s["concurrency"].get<double>(), 2.0);
  // accept_length: chunks after the first carry r0: 1+1+1 (3 chunks), r2: 2+3 (2 chunks) → 8/5
  EXPECT_DOUBLE_EQ(s["accept_length"].get<double>(), 1.6);
}

TEST(ReportsSummary, TtftAndE2eMatchNumpy) {
  const Json s = bench_summary(hand_results());
  // ttft = [1.0, 2.0, 0.5] s; np.percentile(…, 99): sorted rank 0.99·2 = 1.98 → 1.0 + 0.98·1.0
  EXPECT_NEAR(s["mean_ttft_ms"].get<double>(), 3500.0 / 3, 1e-9);
  EXPECT_NEAR(s["median_ttft_ms"].get<double>(), 1000.0, 1e-9);
  EXPECT_NEAR(s["p99_ttft_ms"].get<double>(), 1980.0, 1e-9);
  // np.std: deviations from 7/6 are −1/6, 5/6, −4/6 → sqrt((1+25+16)/36/3)
  EXPECT_NEAR(s["std_ttft_ms"].get<double>(), 1000.0 * std::sqrt(42.0 / 108.0), 1e-9);
  // e2e = [1.75, 2.0, 1.25] s; sorted [1.25, 1.75, 2.0]
  EXPECT_NEAR(s["mean_e2e_latency_ms"].get<double>(), 5000.0 / 3, 1e-9);
  EXPECT_NEAR(s["median_e2e_latency_ms"].get<double>(), 1750.0, 1e-9);
  EXPECT_NEAR(s["p90_e2e_latency_ms"].get<double>(), 1950.0, 1e-9);  // 1.75 + 0.8·0.25
  EXPECT_NEAR(s["p99_e2e_latency_ms"].get<double>(), 1995.0, 1e-9);  // 1.75 + 0.98·0.25
  // deviations from 5/3: 1/12, 1/3, −5/12 → sqrt((1+16+25)/144/3)
  EXPECT_NEAR(s["std_e2e_latency_ms"].get<double>(), 1000.0 * std::sqrt(42.0 / 432.0), 1e-9);
}

TEST(ReportsSummary, TpotSkipsSingleTokenOutputs) {
  const Json s = bench_summary(hand_results());
  // r0: (1.75 − 1.0)/(4 − 1) = 0.25; r2: (1.25 − 0.5)/(6 − 1) = 0.15; r1 (output 1) skipped.
  EXPECT_NEAR(s["mean_tpot_ms"].get<double>(), 200.0, 1e-9);
  EXPECT_NEAR(s["median_tpot_ms"].get<double>(), 200.0, 1e-9);
  EXPECT_NEAR(s["std_tpot_ms"].get<double>(), 50.0, 1e-9);
  EXPECT_NEAR(s["p99_tpot_ms"].get<double>(), 249.0, 1e-9);  // 0.15 + 0.99·0.1
}

TEST(ReportsSummary, ItlPoolsChunkGapsOfAllRequests) {
  const Json s = bench_summary(hand_results());
  // r0 gaps 0.125, 0.25, 0.375; r1 none; r2 gaps 0.5, 0.25 → sorted [.125 .25 .25 .375 .5]
  EXPECT_NEAR(s["mean_itl_ms"].get<double>(), 300.0, 1e-9);  // 1.5 / 5
  EXPECT_NEAR(s["median_itl_ms"].get<double>(), 250.0, 1e-9);
  EXPECT_NEAR(s["p95_itl_ms"].get<double>(), 475.0, 1e-9);  // rank 3.8: .375 + .8·.125
  EXPECT_NEAR(s["p99_itl_ms"].get<double>(), 495.0, 1e-9);  // rank 3.96: .375 + .96·.125
  EXPECT_NEAR(s["max_itl_ms"].get<double>(), 500.0, 1e-9);
  // deviations from 0.3: −.175 −.05 −.05 .075 .2 → squares sum 0.08125, /5 = 0.01625
  EXPECT_NEAR(s["std_itl_ms"].get<double>(), 1000.0 * std::sqrt(0.01625), 1e-9);
}

TEST(ReportsSummary, PeakBucketsAsNewerBenchServing) {
  const Json s = bench_summary(hand_results());
  // 1-s buckets from t=0: chunks in [1,2): 1.0 1.125 1.375 1.75 1.5 → 5; in [2,3): 2.5 2.0 2.25
  EXPECT_DOUBLE_EQ(s["max_output_tokens_per_s"].get<double>(), 5.0);
  // in flight: r0 buckets 0–1, r1 0–2, r2 1–2 → bucket 1 holds 3
  EXPECT_EQ(s["max_concurrent_requests"], 3);
}

TEST(ReportsSummary, WorkloadKeysAndPdsimBlock) {
  const Json s = bench_summary(hand_results());
  EXPECT_DOUBLE_EQ(s["request_rate"].get<double>(), 0.4);
  EXPECT_TRUE(s["max_concurrency"].is_null());  // 0 in the scenario = not set = None
  EXPECT_EQ(s["random_input_len"], 120000);
  EXPECT_EQ(s["random_output_len"], 1000);
  EXPECT_DOUBLE_EQ(s["random_range_ratio"].get<double>(), 1.0);
  EXPECT_EQ(s["dataset_name"], "random");
  EXPECT_EQ(s["backend"], "pdsim");
  const Json& pd = s["pdsim"];
  EXPECT_EQ(pd["seed"], 7);
  EXPECT_EQ(pd["scenario"], "hand");
  EXPECT_DOUBLE_EQ(pd["forward_breakdown_us"]["dispatch"].get<double>(), 400.0);
  EXPECT_EQ(pd["profiles"]["fabric_profile"]["name"], "efa-p5en");
  EXPECT_EQ(pd["profiles"]["fabric_profile"]["provenance"]["kind"], "published");
  EXPECT_FALSE(pd["profiles"]["fabric_profile"].contains("alpha_us"));  // provenance only
}

TEST(ReportsSummary, NotSpeculativeGivesNullAcceptLengthAndInfRateStaysInf) {
  SimResults r = hand_results();
  r.speculative = false;
  r.workload->request_rate = std::numeric_limits<double>::infinity();
  r.workload->max_concurrency = 16;
  const Json s = bench_summary(r);
  EXPECT_TRUE(s["accept_length"].is_null());
  EXPECT_EQ(s["request_rate"], "inf");
  EXPECT_EQ(s["max_concurrency"], 16);
}

TEST(ReportsSummary, NoWorkloadGivesNullRunArguments) {
  SimResults r = hand_results();
  r.workload.reset();
  const Json s = bench_summary(r);
  EXPECT_TRUE(s["request_rate"].is_null());
  EXPECT_TRUE(s["random_input_len"].is_null());
  EXPECT_EQ(s["dataset_name"], "random");
}

// Results cross the worker-process boundary through one declared serializer: every field back.
TEST(ReportsSummary, ResultsSurviveTheProcessBoundary) {
  SimResults r = hand_results();
  r.failure = PredictedFailure{"path_flap", "RC retries exhausted", 1.5, 0.25};
  const SimResults back = results_from_json(results_to_json(r));
  EXPECT_EQ(results_to_json(back).dump(), results_to_json(r).dump());
  EXPECT_EQ(back.requests[2].chunk_tokens, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(back.requests[2].kv_end_s, 1.375);
  EXPECT_EQ(back.workload->input_len, 120000);
  EXPECT_EQ(back.failure->waited_s, 0.25);
  EXPECT_EQ(bench_summary(back).dump(2), bench_summary(r).dump(2));
  EXPECT_EQ(bench_summary(back)["predicted_failure"]["mechanism"], "path_flap");
}

// What simulate_isolated sends: the chunk arrays as one byte string, every other field declared.
TEST(ReportsSummary, TransportCarriesTheChunkArraysAsBytes) {
  SimResults r = hand_results();
  const std::string doc = results_to_json(r).dump();
  Json t = results_to_transport(r);
  // Per request 2 counts (8 B each), then its times (8 B) and tokens (4 B).
  size_t expect = 0;
  for (const auto& q : r.requests)
    expect += 16 + 8 * q.chunk_times_s.size() + 4 * q.chunk_tokens.size();
  EXPECT_EQ(t.at("chunk_arrays").get_binary().size(), expect);
  EXPECT_TRUE(t.at("requests")[2].at("chunk_times_s").empty());
  EXPECT_EQ(results_to_json(results_from_transport(t)).dump(), doc);

  auto error_of = [&](Json j) {
    try {
      results_from_transport(std::move(j));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  Json cut = t;
  cut["chunk_arrays"].get_binary().pop_back();
  // The last byte belongs to the last request: its record is the one found short.
  const std::string last = "requests[" + std::to_string(r.requests.size() - 1) + "]";
  EXPECT_NE(error_of(cut).find(last), std::string::npos) << error_of(cut);
  Json extra = t;
  extra["chunk_arrays"].get_binary().push_back(0);
  EXPECT_NE(error_of(extra).find("got 1 bytes"), std::string::npos) << error_of(extra);
  Json none = t;
  none.erase("chunk_arrays");
  EXPECT_NE(error_of(none).find("chunk_arrays"), std::string::npos);
  // A chunk time beyond kMaxTimeS (1e6 s), or NaN, and a negative token count are refused.
  for (double bad : {2e6, std::nan("")}) {
    SimResults b = hand_results();
    b.requests[1].chunk_times_s[0] = bad;
    EXPECT_NE(error_of(results_to_transport(b)).find("requests[1].chunk_times_s[0]"),
              std::string::npos);
  }
  SimResults neg = hand_results();
  neg.requests[2].chunk_tokens[1] = -1;
  EXPECT_NE(error_of(results_to_transport(neg)).find("requests[2].chunk_tokens[1]"),
            std::string::npos);
  // A count larger than the bytes left is refused before anything is allocated for it.
  Json huge = t;
  auto& b = huge["chunk_arrays"].get_binary();
  const uint64_t n = uint64_t{1} << 60;
  std::memcpy(b.data(), &n, sizeof n);
  EXPECT_NE(error_of(huge).find("requests[0].chunk_times_s"), std::string::npos);
}

TEST(ReportsSummary, SameResultsGiveByteIdenticalJson) {
  EXPECT_EQ(bench_summary(hand_results()).dump(2), bench_summary(hand_results()).dump(2));
}

TEST(ReportsSummary, EmptyRunGivesZerosNotNan) {
  SimResults r;
  r.duration_s = 0;
  const Json s = bench_summary(r);
  EXPECT_EQ(s["completed"], 0);
  EXPECT_EQ(s["mean_ttft_ms"], 0.0);               // bench_serving: np.mean(ttfts or 0)
  EXPECT_TRUE(s["request_throughput"].is_null());  // no duration to divide by
  EXPECT_EQ(s["max_concurrent_requests"], 0);
}

}  // namespace
}  // namespace pdsim

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/sweep/analysis.hpp"
#include "sim/sweep/slo_search.hpp"

namespace pdsim {
namespace {

// A synthetic monotone configuration: p99 TTFT grows linearly with the rate (1000 ms per req/s),
// every request completes.
Json synthetic(double rate) {
  return Json{{"p99_ttft_ms", 1000.0 * rate}, {"completed", 10}};
}

SloSpec ttft_slo(double limit_ms, double lo, double hi, double tol) {
  SloSpec s;
  s.enabled = true;
  s.p99_ttft_ms = limit_ms;
  s.rate_lo = lo;
  s.rate_hi = hi;
  s.rel_tolerance = tol;
  return s;
}

TEST(SweepSlo, BisectionFindsTheHandComputedThreshold) {
  // Limit 2000 ms → threshold 2.0 req/s. Bracket [0.5, 4], tolerance 1 %: hi 4 fails, lo 0.5
  // passes, then midpoints 2.25 F, 1.375 P, 1.8125 P, 2.03125 F, 1.921875 P, 1.9765625 P,
  // 2.00390625 F, 1.990234375 P; now hi − lo = 0.013671875 ≤ 0.01 × 1.990234375 → stop.
  std::vector<double> asked;
  const SloSearchResult r = search_max_rate(ttft_slo(2000, 0.5, 4, 0.01), 10, [&](double rate) {
    asked.push_back(rate);
    return synthetic(rate);
  });
  const std::vector<double> want = {4,       0.5,      2.25,      1.375,      1.8125,
                                    2.03125, 1.921875, 1.9765625, 2.00390625, 1.990234375};
  EXPECT_EQ(asked, want);
  ASSERT_TRUE(r.max_rate);
  EXPECT_EQ(*r.max_rate, 1.990234375);
  EXPECT_EQ(*r.fail_rate, 2.00390625);
  EXPECT_EQ((*r.summary)["p99_ttft_ms"], 1990.234375);
  EXPECT_EQ(r.evaluations.size(), 10u);
  EXPECT_FALSE(r.evaluations[0]["meets"].get<bool>());
}

TEST(SweepSlo, BracketEndsAreReported) {
  // Capacity beyond the bracket: hi passes at once, one evaluation.
  SloSearchResult r = search_max_rate(ttft_slo(1e6, 0.5, 4, 0.01), 10, synthetic);
  EXPECT_EQ(*r.max_rate, 4);
  EXPECT_FALSE(r.fail_rate);
  EXPECT_EQ(r.evaluations.size(), 1u);
  // Nothing in the bracket meets the SLO: hi and lo fail, two evaluations, no rate.
  r = search_max_rate(ttft_slo(100, 0.5, 4, 0.01), 10, synthetic);
  EXPECT_FALSE(r.max_rate);
  EXPECT_EQ(*r.fail_rate, 0.5);
  EXPECT_EQ(r.evaluations.size(), 2u);
}

TEST(SweepSlo, ViolationsNameTheMetric) {
  SloSpec s;
  s.mean_tpot_ms = 50;
  s.p99_itl_ms = 200;
  const Json ok{{"mean_tpot_ms", 50.0}, {"p99_itl_ms", 10.0}, {"completed", 4}};
  EXPECT_TRUE(slo_violations(s, ok, 4).empty());  // equal to the limit meets it
  const Json bad{{"mean_tpot_ms", 50.5}, {"p99_itl_ms", 10.0}, {"completed", 3}};
  const auto v = slo_violations(s, bad, 4);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], "mean_tpot_ms 50.5 > 50");
  EXPECT_EQ(v[1], "completed 3 < 4");
}

TEST(SweepSlo, AnOfferedRateTheClientDidNotKeepIsAViolation) {
  SloSpec s;
  s.rel_tolerance = 0.02;
  auto with_load = [](double wait_s, double span_s) {
    return Json{{"completed", 4},
                {"pdsim",
                 {{"offered_load", {{"admission_wait_s", wait_s}, {"scheduled_span_s", span_s}}}}}};
  };
  EXPECT_TRUE(slo_violations(s, with_load(0.2, 10), 4).empty());  // 2 % of 10 s: at the limit
  const auto v = slo_violations(s, with_load(0.25, 10), 4);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0],
            "offered rate not reached: max_concurrency held requests back 0.25 s over a 10 s "
            "schedule");
}

// The capacity-search bug (issue 28): with max_concurrency the client can send at most 0.33
// req/s, yet the search reported the bracket's 5.45 req/s. A closed-loop configuration: 100
// requests, the latency SLO always met, requests sent at min(rate, 0.33) req/s, so at an offered
// rate r > 0.33 the client is held back 100 / 0.33 − 100 / r seconds over a 100 / r s schedule.
// The rate is reached within 2 % while 100 / 0.33 − 100 / r ≤ 0.02 × 100 / r, i.e.
// r ≤ 1.02 × 0.33 = 0.3366 req/s.
TEST(SweepSlo, CapacityIsARateTheClientReached) {
  auto closed_loop = [](double rate) {
    const double span = 100 / rate, sent_at = std::min(rate, 0.33);
    return Json{{"p99_ttft_ms", 10.0},
                {"completed", 100},
                {"request_throughput", sent_at},
                {"pdsim",
                 {{"offered_load",
                   {{"admission_wait_s", 100 / sent_at - span}, {"scheduled_span_s", span}}}}}};
  };
  const SloSearchResult r = search_max_rate(ttft_slo(1000, 0.1, 5.45, 0.02), 100, closed_loop);
  ASSERT_TRUE(r.max_rate);
  ASSERT_TRUE(r.fail_rate);
  EXPECT_LE(*r.max_rate, 1.02 * 0.33);
  EXPECT_GT(*r.fail_rate, 1.02 * 0.33);
  EXPECT_FALSE(r.evaluations[0]["meets"].get<bool>());  // 5.45 req/s: not reached
  EXPECT_DOUBLE_EQ(r.evaluations[0]["achieved_request_rate"].get<double>(), 0.33);
}

TEST(SweepPareto, FrontierOfHandMadePoints) {
  // (TPOT ms, tok/s per GPU): A(10,100) B(20,150) C(15,90) D(30,150) E(5,50) F(20,140) G(10,100)
  // C is beaten by A, D by B (same throughput, slower), F by B, G duplicates A (first kept).
  // Frontier by TPOT: E, A, B.
  const std::vector<FrontierInput> pts = {{10, 100}, {20, 150}, {15, 90}, {30, 150},
                                          {5, 50},   {20, 140}, {10, 100}};
  EXPECT_EQ(pareto_frontier(pts), (std::vector<size_t>{4, 0, 1}));
  EXPECT_TRUE(pareto_frontier({}).empty());
}

}  // namespace
}  // namespace pdsim

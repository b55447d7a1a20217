#include <gtest/gtest.h>

#include <map>

#include "reports/compare.hpp"

namespace pdsim {
namespace {

// A: TPOT 20 ms, forward = 5000 + 6000 + 7000 + 2000 µs = 20 ms (not speculative: 1 token).
// B: TPOT 24 ms, forward = 5000 + 8000 + 8500 + 2000 + 100 µs = 23.6 ms.
Json summary_a() {
  return {{"mean_ttft_ms", 1000.0},
          {"p99_ttft_ms", 2000.0},
          {"mean_tpot_ms", 20.0},
          {"p99_itl_ms", 30.0},
          {"output_throughput", 400.0},
          {"accept_length", nullptr},
          {"pdsim",
           {{"forward_breakdown_us",
             {{"attention", 5000.0},
              {"dispatch", 6000.0},
              {"combine", 7000.0},
              {"moe_compute", 2000.0}}},
            {"kv_transfer", {{"mean_s", 0.5}, {"p99_s", 1.0}}},
            {"queueing", {{"prefill_wait_mean_s", 0.1}, {"decode_wait_mean_s", 0.05}}}}}};
}
Json summary_b() {
  return {{"mean_ttft_ms", 1300.0},
          {"p99_ttft_ms", 2500.0},
          {"mean_tpot_ms", 24.0},
          {"p99_itl_ms", 36.0},
          {"output_throughput", 380.0},
          {"pdsim",
           {{"forward_breakdown_us",
             {{"attention", 5000.0},
              {"dispatch", 8000.0},
              {"combine", 8500.0},
              {"moe_compute", 2000.0},
              {"other", 100.0}}},
            {"kv_transfer", {{"mean_s", 0.7}, {"p99_s", 1.5}}},
            {"queueing", {{"prefill_wait_mean_s", 0.15}, {"decode_wait_mean_s", 0.05}}}}}};
}

TEST(ReportsCompare, MetricDeltasAbsoluteAndPercent) {
  const Json c = compare_json(summary_a(), summary_b(), {"efa", "roce"});
  EXPECT_EQ(c["names"][1], "roce");
  const Json* tpot = nullptr;
  for (const auto& m : c["metrics"])
    if (m["key"] == "mean_tpot_ms") tpot = &m;
  ASSERT_NE(tpot, nullptr);
  EXPECT_DOUBLE_EQ((*tpot)["delta"].get<double>(), 4.0);       // 24 − 20
  EXPECT_DOUBLE_EQ((*tpot)["delta_pct"].get<double>(), 20.0);  // 4 / 20
  // keys absent from both summaries (median TPOT, max ITL) are left out, not errors
  for (const auto& m : c["metrics"]) EXPECT_NE(m["key"], "max_itl_ms");
}

TEST(ReportsCompare, TpotDeltaAttributedToForwardTermsRanked) {
  const Json e = compare_json(summary_a(), summary_b(), {"efa", "roce"})["tpot_explanation"];
  const Json& t = e["terms"];
  ASSERT_EQ(t.size(), 5u);
  // dispatch +2000 µs → +2.0 ms/token (50 % of 4 ms), combine +1.5 (37.5 %), other +0.1 (2.5 %)
  EXPECT_EQ(t[0]["term"], "dispatch");
  EXPECT_NEAR(t[0]["tpot_contribution_ms"].get<double>(), 2.0, 1e-12);
  EXPECT_NEAR(t[0]["tpot_share_pct"].get<double>(), 50.0, 1e-9);
  EXPECT_EQ(t[1]["term"], "combine");
  EXPECT_NEAR(t[1]["tpot_share_pct"].get<double>(), 37.5, 1e-9);
  EXPECT_EQ(t[2]["term"], "other");
  EXPECT_NEAR(t[2]["a_us"].get<double>(), 0.0, 0);  // absent in A counts as 0
  EXPECT_EQ(t[3]["term"], "attention");             // zero deltas tie, ordered by name
  EXPECT_EQ(t[4]["term"], "moe_compute");
  EXPECT_NEAR(e["explained_tpot_ms"].get<double>(), 3.6, 1e-12);
  EXPECT_NEAR(e["residual_tpot_ms"].get<double>(), 0.4, 1e-12);  // 4 − 3.6
}

TEST(ReportsCompare, SpeculativeTermsDividedByTokensPerForward) {
  Json a = summary_a(), b = summary_b();
  a["accept_length"] = 2.0;
  b["accept_length"] = 2.5;
  const Json t = compare_json(a, b, {"a", "b"})["tpot_explanation"]["terms"];
  // dispatch: 8000/2.5 − 6000/2 = 3200 − 3000 = 200 µs per token; attention 2000 − 2500 = −500
  std::map<std::string, Json> by_term;
  for (const auto& x : t) by_term[x["term"].get<std::string>()] = x;
  EXPECT_NEAR(by_term["dispatch"]["tpot_contribution_ms"].get<double>(), 0.2, 1e-12);
  EXPECT_NEAR(by_term["attention"]["tpot_contribution_ms"].get<double>(), -0.5, 1e-12);
  EXPECT_NEAR(by_term["dispatch"]["itl_contribution_ms"].get<double>(), 2.0, 1e-12);
  EXPECT_EQ(t[0]["term"], "attention");  // |−0.5| is the largest contribution
}

TEST(ReportsCompare, TtftTermsFromKvTransferAndQueueing) {
  const Json e = compare_json(summary_a(), summary_b(), {"efa", "roce"})["ttft_explanation"];
  // ΔTTFT 300 ms: KV transfer +200 ms (66.7 %), prefill wait +50 ms, decode wait 0
  EXPECT_EQ(e["terms"][0]["term"], "kv_transfer_mean");
  EXPECT_NEAR(e["terms"][0]["delta_ms"].get<double>(), 200.0, 1e-9);
  EXPECT_NEAR(e["terms"][0]["ttft_share_pct"].get<double>(), 200.0 / 3, 1e-9);
  EXPECT_EQ(e["terms"][1]["term"], "prefill_queue_wait_mean");
  EXPECT_NEAR(e["residual_ttft_ms"].get<double>(), 50.0, 1e-9);
  EXPECT_NEAR(e["kv_transfer_p99_delta_ms"].get<double>(), 500.0, 1e-9);
}

TEST(ReportsCompare, TextSideBySideAndMissingBlocks) {
  const std::string s = compare_text(summary_a(), summary_b(), {"efa", "roce"});
  EXPECT_NE(s.find("A = efa, B = roce"), std::string::npos);
  EXPECT_NE(s.find("+20.0"), std::string::npos);  // TPOT and p99 ITL % deltas
  EXPECT_LT(s.find("  dispatch"), s.find("  combine"));
  // summaries without a pdsim block still compare (no explanation sections)
  const std::string bare = compare_text(Json{{"mean_tpot_ms", 1.0}}, Json::object(), {"x", "y"});
  EXPECT_NE(bare.find("Mean TPOT (ms)"), std::string::npos);
  EXPECT_EQ(bare.find("by decode-forward term"), std::string::npos);
}

}  // namespace
}  // namespace pdsim

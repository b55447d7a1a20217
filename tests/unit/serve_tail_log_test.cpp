// ITL tail log reduction (sim/serve/tail_log.*) and the attribution table
// (reports/tail_attribution.*) on a hand-made log.
#include <gtest/gtest.h>

#include "reports/tail_attribution.hpp"
#include "sim/serve/mechanisms/tail_log.hpp"

namespace pdsim {
namespace {

IterationRecord rec(double itl_us, int requests, double attention_us, double jump_us) {
  IterationRecord r;
  r.duration_us = itl_us;
  r.requests = requests;
  r.terms.attention_us = attention_us;
  r.terms.other_us = itl_us - attention_us;
  r.mech["batch_jump"] = jump_us;
  return r;
}

TEST(ServeTailLog, WorstOnePercentAndMedianAreWeightedBySamples) {
  // 100 ITL samples: 50 of 10 us, 49 of 20 us, 1 of 30 us (its iteration served one request).
  const std::vector<IterationRecord> log = {rec(10, 50, 4, 0), rec(20, 49, 8, 0),
                                            rec(30, 1, 12, 5)};
  const Json t = tail_summary(log);
  EXPECT_EQ(t["itl_samples"].get<double>(), 100);
  // Worst 1% = ceil(0.01 · 100) = 1 sample: the 30 us iteration alone.
  EXPECT_EQ(t["top1pct"]["samples"].get<double>(), 1);
  EXPECT_EQ(t["top1pct"]["threshold_us"].get<double>(), 30);
  EXPECT_EQ(t["top1pct"]["mechanisms_us"]["batch_jump"].get<double>(), 5);
  EXPECT_EQ(t["top1pct"]["fired_fraction"]["batch_jump"].get<double>(), 1);
  // Weighted median from the top: 1 (30 us) + 49 (20 us) = 50 >= 100 / 2, so the 20 us sample.
  EXPECT_EQ(t["median"]["itl_us"].get<double>(), 20);
  // batch_jump fired in 1 of 100 samples, adding 5 us there.
  EXPECT_DOUBLE_EQ(t["all"]["batch_jump"]["fired_fraction"].get<double>(), 0.01);
  EXPECT_EQ(t["all"]["batch_jump"]["mean_when_fired_us"].get<double>(), 5);

  Json summary = {{"p99_itl_ms", 0.03}, {"max_itl_ms", 0.03}, {"pdsim", {{"tail", t}}}};
  const Json a = tail_attribution_json(summary);
  // attention: median 8, worst 1% 12, so the tail adds 4 us of attention.
  EXPECT_EQ(a["terms_us"]["attention"]["top1pct_minus_median"].get<double>(), 4);
  EXPECT_NE(tail_attribution_text(summary).find("batch_jump"), std::string::npos);
  // Compare with itself: every delta is zero.
  const Json c = tail_compare_json(summary, summary, {"a", "b"});
  EXPECT_EQ(c["terms_us"]["attention"]["top1pct"]["delta"].get<double>(), 0);
  EXPECT_EQ(c["max_itl_ms"]["delta"].get<double>(), 0);
}

}  // namespace
}  // namespace pdsim

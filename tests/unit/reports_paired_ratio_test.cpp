// The B / A ratio of a comparison over paired parameter draws (reports/interval_report.hpp): the
// quantiles of b_k / a_k, by hand; none when the draws do not pair.
#include <gtest/gtest.h>

#include "reports/interval_report.hpp"

namespace pdsim {
namespace paired_ratio_test {

Json side(const Json& tpot, const Json& overlays = Json::array({"fit.json"})) {
  return {{"samples", tpot.size()},
          {"seed", 7},
          {"overlays", overlays},
          {"draws", {{"mean_tpot_ms", tpot}}}};
}

// Ratios 30/15 = 2, 33/22 = 1.5, 40/20 = 2 and a draw missing on one side (skipped): sorted
// 1.5, 2, 2 → p05 = 1.5 + 0.1 × 0.5 = 1.55 (numpy's linear rule: rank 0.05 × 2 = 0.1), p50 = 2.
TEST(PairedRatio, QuantilesOfTheDrawByDrawRatio) {
  const Json a = side(Json::array({15.0, 22.0, 20.0, 10.0}));
  const Json b = side(Json::array({30.0, 33.0, 40.0, nullptr}));
  const Json r = paired_ratio_intervals(a, b);
  ASSERT_TRUE(r.contains("mean_tpot_ms"));
  EXPECT_DOUBLE_EQ(r["mean_tpot_ms"]["p05"].get<double>(), 1.55);
  EXPECT_DOUBLE_EQ(r["mean_tpot_ms"]["p50"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(r["mean_tpot_ms"]["p95"].get<double>(), 2.0);
  EXPECT_EQ(r["mean_tpot_ms"]["pairs"], 3);
  const std::string t = paired_ratio_text(r, "roce", "efa");
  EXPECT_NE(t.find("Ratio efa / roce"), std::string::npos) << t;
  EXPECT_NE(t.find("1.550  2.000  2.000"), std::string::npos) << t;
}

// Draw k pairs only when both sides drew the same fitted parameters: other overlays, another
// seed or another sample count → no ratio (and no text).
TEST(PairedRatio, UnpairedDrawsGiveNone) {
  const Json a = side(Json::array({1.0, 2.0}));
  EXPECT_TRUE(paired_ratio_intervals(a, side(Json::array({1.0, 2.0}), Json::array())).is_null());
  Json other_seed = a;
  other_seed["seed"] = 8;
  EXPECT_TRUE(paired_ratio_intervals(a, other_seed).is_null());
  EXPECT_TRUE(paired_ratio_intervals(a, side(Json::array({1.0, 2.0, 3.0}))).is_null());
  EXPECT_EQ(paired_ratio_text(nullptr, "a", "b"), "");
}

}  // namespace paired_ratio_test
}  // namespace pdsim

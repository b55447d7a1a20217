// The run summary's all-to-all evidence (sim/fabric/a2a_fit_evidence): read from a hand-made
// profile fit record.
#include <gtest/gtest.h>

#include "sim/fabric/a2a_fit_evidence.hpp"
#include "tests/unit/fabric_test_profile.hpp"

namespace pdsim {
namespace fit_evidence_test {

TEST(FabricFitEvidence, RowsErrorAndAlternatesByHand) {
  FabricProfile p = testing::hand_profile();
  EXPECT_TRUE(a2a_fit_evidence(p, "cpu-proxy").is_null());  // no fit record
  p.fit = {{"a2a",
            {{"cpu-proxy",
              {{"rms_us", 20.0},
               {"residuals", Json::array({{{"ep", 16}, {"measured_us", 300.0}},
                                          {{"ep", 32}, {"measured_us", 500.0}}})},
               {"parameters",
                {{"latency_us", {{"held", true}, {"value", 10.0}}},
                 {"post_us_per_msg", {{"value", 1.4}, {"std_error", 0.1}}}}}}}}},
           {"alternates",
            {{"alt.json", {{"cpu-proxy", {{"block", {{"post_us_per_msg", 1.8}}}}}}},
             {"other.json", {{"ibgda", {{"block", {{"post_us_per_msg", 9.0}}}}}}}}}};
  const Json e = a2a_fit_evidence(p, "cpu-proxy");
  EXPECT_EQ(e.at("fit_rows"), 2);
  EXPECT_EQ(e.at("measured_ep"), Json::array({16, 32}));
  EXPECT_DOUBLE_EQ(e.at("rms_rel_error").get<double>(), 20.0 / 400.0);  // rms / mean measured
  const Json& fp = e.at("fitted_parameters");
  EXPECT_FALSE(fp.contains("latency_us"));  // held, not fitted
  EXPECT_DOUBLE_EQ(fp.at("post_us_per_msg").at("std_error").get<double>(), 0.1);
  EXPECT_EQ(fp.at("post_us_per_msg").at("alternates"), Json({{"alt.json", 1.8}}));
}

}  // namespace fit_evidence_test
}  // namespace pdsim

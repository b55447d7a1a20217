// Leave one group out (sim/fit/leave_out_groups.hpp): which runs a fold leaves out together, and a
// fit that leaves a whole deployment out and still finds a known parameter from the other one.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/fit/leave_out_groups.hpp"
#include "sim/fit/serving_fit.hpp"
#include "sim/fit/set_predictor.hpp"
#include "tests/unit/synthetic_set.hpp"
#include "tests/unit/test_support.hpp"

namespace pdsim {
namespace {

using testing::input_error_of;

std::vector<std::vector<size_t>> runs_of(const std::vector<LeaveOutGroup>& g) {
  std::vector<std::vector<size_t>> r;
  for (const auto& x : g) r.push_back(x.runs);
  return r;
}
std::vector<std::string> labels_of(const std::vector<LeaveOutGroup>& g) {
  std::vector<std::string> r;
  for (const auto& x : g) r.push_back(x.label);
  return r;
}

// The GLM-5.1 set: R2 drives two NICs per decode GPU, R4 one, R5 one with EAGLE.
TEST(LeaveOutGroups, ByRunDeploymentOrOneCoordinate) {
  const ValidationSet set =
      load_validation_set(data_root() + "/calibrate/validation/glm51-2p2d-p5en-20260430.json");
  const SetPredictor pred(set, std::nullopt, 1);
  const auto& deps = pred.deployments();
  EXPECT_EQ(labels_of(leave_out_groups(set, deps, "run")),
            (std::vector<std::string>{"R2-shared-rails", "R4-rail-split", "R5-rail-split-eagle"}));
  // Named by what tells the runs apart: NICs per decode GPU and speculative decoding.
  const auto dep = leave_out_groups(set, deps, "deployment");
  EXPECT_EQ(runs_of(dep), (std::vector<std::vector<size_t>>{{0}, {1}, {2}}));
  EXPECT_EQ(labels_of(dep), (std::vector<std::string>{"2 | none", "1 | none",
                                                      "1 | eagle 3 steps, 4 draft tokens"}));
  const auto nics = leave_out_groups(set, deps, "decode.a2a_nics_per_gpu");
  EXPECT_EQ(labels_of(nics), (std::vector<std::string>{"decode.a2a_nics_per_gpu = 2",
                                                       "decode.a2a_nics_per_gpu = 1"}));
  EXPECT_EQ(runs_of(nics), (std::vector<std::vector<size_t>>{{0}, {1, 2}}));
  const auto spec = leave_out_groups(set, deps, "speculative");
  EXPECT_EQ(labels_of(spec),
            (std::vector<std::string>{"speculative = none",
                                      "speculative = eagle 3 steps, 4 draft tokens"}));
  EXPECT_EQ(runs_of(spec), (std::vector<std::vector<size_t>>{{0, 1}, {2}}));
  // One model for all three: a fold would leave nothing to fit.
  const std::string one = input_error_of([&] { leave_out_groups(set, deps, "model"); });
  EXPECT_NE(one.find("--leave-out-by"), std::string::npos) << one;
  EXPECT_NE(one.find("at least two groups"), std::string::npos) << one;
  const std::string bad = input_error_of([&] { leave_out_groups(set, deps, "moe"); });
  EXPECT_NE(bad.find("run, deployment, model, platform"), std::string::npos) << bad;
  EXPECT_NE(bad.find("decode.moe_path"), std::string::npos) << bad;
}

// Three runs measured as pdsim predicts them with fixed_us = 80: two drive two NICs per decode
// GPU, one drives one. Left out by NIC layout, each fold fits the other layout alone, finds 80
// again, and so predicts the runs left out exactly.
std::string two_layout_set(const std::string& dir) {
  return testing::synthetic_set(
      dir, "two-layouts", {"workload.num_prompts=8", "decode.speculative.algorithm=none"},
      {{"A", {}}, {"B", {"workload.num_prompts=6"}}, {"C", {"decode.a2a_nics=8"}}});
}

TEST(ServingFit, LeavesAWholeDeploymentOut) {
  const ValidationSet set = load_validation_set(two_layout_set(::testing::TempDir() + "/groups"));
  ServingFitOptions opt;
  opt.fit = {"fabric.a2a.cpu-proxy.fixed_us=0:300"};
  opt.jobs = 2;
  opt.leave_out_by = "decode.a2a_nics_per_gpu";
  const ServingFitResult r = fit_serving(set, opt);
  ASSERT_TRUE(r.converged) << r.status;
  ASSERT_EQ(r.loo.size(), 2u);
  EXPECT_EQ(r.loo[0].label, "decode.a2a_nics_per_gpu = 2");
  EXPECT_EQ(r.loo[0].runs, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(r.loo[1].runs, (std::vector<size_t>{2}));
  for (const auto& l : r.loo) {
    ASSERT_TRUE(l.converged);
    EXPECT_NEAR(l.theta[0], 80.0, 2.0) << l.label;  // the other layout alone holds the truth
    for (const auto& x : l.residuals) EXPECT_LT(std::fabs(x.log_ratio), 0.01) << x.metric;
  }
  // Both runs left out together are predicted: A's and B's residuals are in the first fold.
  std::set<size_t> left;
  for (const auto& x : r.loo[0].residuals) left.insert(x.run);
  EXPECT_EQ(left, (std::set<size_t>{0, 1}));
  const Json& fit = r.overlay.doc["fit"];
  EXPECT_EQ(fit["leave_out_by"], "decode.a2a_nics_per_gpu");
  EXPECT_EQ(fit["leave_one_out"][0]["left_out"], "decode.a2a_nics_per_gpu = 2");
  EXPECT_EQ(fit["leave_one_out"][0]["left_out_runs"], (Json{"A", "B"}));
  EXPECT_EQ(fit["leave_one_out"][1]["left_out_runs"], (Json{"C"}));
}

}  // namespace
}  // namespace pdsim

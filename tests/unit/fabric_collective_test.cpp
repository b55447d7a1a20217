// The collective profile (sim/fabric/collective_profile) and its fit (calibrate/fit_collective):
// nccl-tests' bus factors, the piecewise latency–bandwidth time with hand-computed values, what a
// query outside the measured shape or sizes says, the regime split recovered exactly from
// noise-free rows, and refusals that name the field.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "calibrate/collective_row_noise.hpp"
#include "calibrate/fit_collective.hpp"
#include "sim/core/error.hpp"
#include "tests/unit/collective_test_profile.hpp"

namespace pdsim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

CollectiveProfile two_regime_profile() {
  CollectiveRegime small;
  small.up_to_bytes = 1e6;
  small.alpha_us = 100;
  small.busbw_GBps = kInf;
  small.rms_rel_error = 0.2;
  CollectiveRegime large;
  large.up_to_bytes = kInf;
  large.alpha_us = 50;
  large.busbw_GBps = 400;
  large.rms_rel_error = 0.03;
  return testing::all_reduce_16x2({small, large});
}

TEST(Collective, BusFactorsAreNcclTestsConvention) {
  EXPECT_DOUBLE_EQ(collective_bus_factor("all_reduce", 16), 30.0 / 16);
  EXPECT_DOUBLE_EQ(collective_bus_factor("all_gather", 16), 15.0 / 16);
  EXPECT_DOUBLE_EQ(collective_bus_factor("reduce_scatter", 8), 7.0 / 8);
  EXPECT_THROW(collective_bus_factor("alltoall", 16), InputError);
}

TEST(Collective, TimeIsAlphaPlusBusBytesOverBusbwOfTheRegime) {
  const CollectiveProfile p = two_regime_profile();
  // 8 KiB: latency regime, no size term: 100 µs; busbw = 1.875 · 8192 B / 100 µs = 0.1536 GB/s.
  CollectivePrediction a = predict_collective(p, "all_reduce", 8192, 16, 2);
  EXPECT_EQ(a.regime, 0);
  EXPECT_DOUBLE_EQ(a.time_us, 100.0);
  EXPECT_DOUBLE_EQ(a.busbw_GBps, 0.1536);
  EXPECT_DOUBLE_EQ(a.rel_uncertainty, 0.2);
  EXPECT_TRUE(a.outside.empty());
  // 1 MiB: 50 + 1.875 · 1048576 / 400e3 = 50 + 4.9152 µs.
  CollectivePrediction b = predict_collective(p, "all_reduce", 1048576, 16, 2);
  EXPECT_EQ(b.regime, 1);
  EXPECT_DOUBLE_EQ(b.time_us, 54.9152);
  EXPECT_DOUBLE_EQ(b.busbw_GBps, 1966080.0 / 54.9152e3);
}

// Between the last measured size of one regime (64 KiB) and the first of the next (4 MB) nobody
// measured where NCCL switches (the boundary is put at 1 MB): the other regime's time is as
// plausible at the boundary and ruled out at the measured ends, linearly in log size between.
// 1 MB: regime 0, 100 µs; regime 1 would give 50 + 1.875 · 1e6 / 4e5 = 54.6875 µs: 45.3125 %.
// 500 kB: gap (100 − 52.34375) / 100, weight 1 − ln 2 / ln(1e6 / 65536). 2 MB: regime 1, 59.375
// µs against 100, weight 1 − ln 2 / ln 4 = 1/2. 8 MB: outside the bracket, the regime's own 3 %.
TEST(Collective, InsideABoundarysBracketTheOtherRegimeIsTheUncertainty) {
  CollectiveProfile p = two_regime_profile();
  p.curves[0].regimes[0].bracket_low_bytes = 65536;
  p.curves[0].regimes[0].bracket_high_bytes = 4e6;
  EXPECT_DOUBLE_EQ(predict_collective(p, "all_reduce", 1e6, 16, 2).rel_uncertainty, 0.453125);
  EXPECT_DOUBLE_EQ(predict_collective(p, "all_reduce", 5e5, 16, 2).rel_uncertainty,
                   0.4765625 * (1 - std::log(2.0) / std::log(1e6 / 65536)));
  const CollectivePrediction b = predict_collective(p, "all_reduce", 2e6, 16, 2);
  EXPECT_EQ(b.regime, 1);
  EXPECT_DOUBLE_EQ(b.rel_uncertainty, 0.5 * 40.625 / 59.375);
  EXPECT_DOUBLE_EQ(predict_collective(p, "all_reduce", 8e6, 16, 2).rel_uncertainty, 0.03);
  EXPECT_DOUBLE_EQ(predict_collective(p, "all_reduce", 8192, 16, 2).rel_uncertainty, 0.2);
}

TEST(Collective, LeavingTheMeasuredShapeOrSizesIsSaid) {
  const CollectiveProfile p = two_regime_profile();
  CollectivePrediction a = predict_collective(p, "all_reduce", 4096, 16, 2);
  ASSERT_EQ(a.outside.size(), 1u);
  EXPECT_NE(a.outside[0].find("outside the measured"), std::string::npos);
  // 32 ranks on 4 nodes: the 16-rank curve, bus factor of 32 ranks: 50 + 1.9375 · 2^30 / 400e3.
  CollectivePrediction b = predict_collective(p, "all_reduce", 1073741824.0, 32, 4);
  ASSERT_EQ(b.outside.size(), 1u);
  EXPECT_NE(b.outside[0].find("measured over 16 ranks on 2 nodes"), std::string::npos);
  EXPECT_DOUBLE_EQ(b.time_us, 50 + 1.9375 * 1073741824.0 / 400e3);
  EXPECT_THROW(predict_collective(p, "all_gather", 8192, 16, 2), InputError);
  EXPECT_THROW(predict_collective(p, "all_reduce", 0, 16, 2), InputError);
}

TEST(Collective, FitRecoversTwoRegimesFromNoiseFreeRows) {
  // LL-like regime: 100 µs + S_bus / 5 GB/s at 8–64 KiB; Simple-like: 80 µs + S_bus / 200 GB/s
  // at 1–16 MiB. The split between 64 KiB and 1 MiB must win, at its geometric midpoint 256 KiB.
  std::vector<CollectiveRow> rows;
  const double f = 30.0 / 16;
  for (double s : {8192.0, 16384.0, 32768.0, 65536.0})
    rows.push_back({"r", "x", "", s, 100 + f * s / 5e3});
  for (double s : {1048576.0, 2097152.0, 4194304.0, 8388608.0, 16777216.0})
    rows.push_back({"r", "x", "", s, 80 + f * s / 200e3});
  const CollectiveCurveFit fit = fit_collective_curve("all_reduce", 16, 2, rows, 3);
  ASSERT_EQ(fit.curve.regimes.size(), 2u);
  const auto& r0 = fit.curve.regimes[0];
  const auto& r1 = fit.curve.regimes[1];
  EXPECT_NEAR(r0.alpha_us, 100, 1e-7);
  EXPECT_NEAR(r0.busbw_GBps, 5, 1e-9);
  EXPECT_NEAR(r1.alpha_us, 80, 1e-7);
  EXPECT_NEAR(r1.busbw_GBps, 200, 1e-7);
  EXPECT_DOUBLE_EQ(r0.up_to_bytes, 262144.0);
  EXPECT_DOUBLE_EQ(r0.bracket_low_bytes, 65536.0);
  EXPECT_DOUBLE_EQ(r0.bracket_high_bytes, 1048576.0);
  EXPECT_TRUE(std::isinf(r1.up_to_bytes));
  EXPECT_EQ(r0.rows, 4);
  EXPECT_EQ(r1.rows, 5);
  EXPECT_NEAR(fit.report.at("max_abs_busbw_error_pct").get<double>(), 0, 1e-6);
}

TEST(Collective, PrintedUnitIsTheLastDecimal) {
  EXPECT_DOUBLE_EQ(printed_unit(0.12), 0.01);
  EXPECT_DOUBLE_EQ(printed_unit(442.2), 0.1);
  EXPECT_DOUBLE_EQ(printed_unit(128), 1.0);
  EXPECT_DOUBLE_EQ(printed_unit(1e-7), 1e-7);
  EXPECT_DOUBLE_EQ(printed_unit(2.5e-7), 1e-8);
}

// Instance a measures 1000 B twice (100 and 121 µs): variance (ln 1.21)² / 2 = 0.0181681. Instance
// b's single 1000 B row borrows it; its 2000 B row, with no replicate at that size anywhere, takes
// the median over sizes (the same value). Each adds its print resolution u²/12.
TEST(Collective, RowNoiseIsRepeatabilityPlusResolution) {
  std::vector<CollectiveRow> rows = {{"r", "a", "", 1000, 100, 0.01},
                                     {"r", "a", "in-place", 1000, 121, 0.01},
                                     {"r", "b", "", 1000, 110, 0.0},
                                     {"r", "b", "", 2000, 150, 0.12}};
  const std::vector<double> v = collective_row_variances(rows);
  const double rep = std::pow(std::log(1.21), 2) / 2;
  ASSERT_EQ(v.size(), 4u);
  EXPECT_NEAR(rep, 0.0181681, 1e-7);
  EXPECT_NEAR(v[0], rep + 1e-4 / 12, 1e-15);
  EXPECT_NEAR(v[1], rep + 1e-4 / 12, 1e-15);
  EXPECT_NEAR(v[2], rep, 1e-15);
  EXPECT_NEAR(v[3], rep + 0.0144 / 12, 1e-15);
}

// One regime, 80 µs + S_bus / 200 GB/s, measured exactly (two agreeing placements each) at three
// sizes and at a fourth whose two placements disagree 2.25× (1.5× either way): weighted by its
// own repeatability the noisy size cannot move the curve, which an unweighted fit in relative
// error would (the two residuals, +1/3 and −1/2, do not cancel).
TEST(Collective, FitWeighsARowByItsOwnRepeatability) {
  const double f = 30.0 / 16;
  auto t = [&](double s) { return 80 + f * s / 200e3; };
  std::vector<CollectiveRow> rows;
  for (double s : {1048576.0, 2097152.0, 8388608.0})
    for (const char* p : {"out-of-place", "in-place"}) rows.push_back({"r", "x", p, s, t(s), 1e-6});
  rows.push_back({"r", "x", "out-of-place", 4194304.0, t(4194304.0) * 1.5, 1e-6});
  rows.push_back({"r", "x", "in-place", 4194304.0, t(4194304.0) / 1.5, 1e-6});
  const CollectiveCurveFit fit = fit_collective_curve("all_reduce", 16, 2, rows, 1);
  ASSERT_EQ(fit.curve.regimes.size(), 1u);
  EXPECT_NEAR(fit.curve.regimes[0].alpha_us, 80, 1e-3);
  EXPECT_NEAR(fit.curve.regimes[0].busbw_GBps, 200, 1e-3);
  EXPECT_NEAR(fit.report.at("rows")[6].at("noise_rel").get<double>(),
              std::sqrt(std::pow(std::log(2.25), 2) / 2 + 1e-12 / 12), 1e-12);
}

TEST(Collective, FitNeedsTwoSizes) {
  std::vector<CollectiveRow> rows = {{"f.json#results[0]", "", "", 8192, 100},
                                     {"f.json#results[1]", "", "in-place", 8192, 90}};
  try {
    fit_collective_curve("all_reduce", 16, 2, rows, 3);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two or more message sizes"), std::string::npos);
  }
}

TEST(Collective, ProfileRoundTripsAndRefusesAFiniteLastRegime) {
  CollectiveProfile p = two_regime_profile();
  p.library = "NCCL";
  p.fabric = "EFA";
  p.provenance = {{"tool", "test"}};
  const Json doc = collective_profile_to_json(p);
  EXPECT_EQ(doc.at("curves").at(0).at("regimes").at(1).at("up_to_bytes"), "inf");
  const CollectiveProfile back = collective_profile_from_json(doc, "p.json");
  EXPECT_EQ(collective_profile_to_json(back), doc);
  Json bad = doc;
  bad["curves"][0]["regimes"][1]["up_to_bytes"] = 1e12;
  try {
    collective_profile_from_json(bad, "p.json");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("p.json"), std::string::npos) << m;
    EXPECT_NE(m.find("up_to_bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("inf on the last regime"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace pdsim

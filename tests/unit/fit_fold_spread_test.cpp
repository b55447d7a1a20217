// sim/fit/fold_spread and its use by the envelope: the spread of a fit's left-out errors computed
// by hand, which predictions it covers (a recombination of what its folds predicted) and which it
// does not, and the interval `pdsim run` then gives.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/fit/deployment_spread.hpp"
#include "sim/fit/envelope.hpp"
#include "sim/fit/fold_spread.hpp"
#include "sim/fit/loo_interval.hpp"
#include "tests/unit/corpus_fixture.hpp"

namespace pdsim {
namespace {

using testing::coords;
using testing::corpus_run;

const char* kDp = "TP16 DP16 (DP attention), MoE TP";

Json residual(const std::string& run, const std::string& metric, double log_ratio) {
  return {{"run", run}, {"metric", metric}, {"log_ratio", log_ratio}};
}

// Three deployments left out one at a time. Per-token errors per run: A1 (0.10 + 0.02) / 2 =
// 0.06 (TPOT and ITL are one error), A2 −0.04, B1 0.08, C1 −0.02; A1's TTFT is another family.
Json three_folds() {
  return {{"leave_out_by", "deployment"},
          {"leave_one_out",
           {{{"left_out", "A"},
             {"residuals",
              {residual("A1", "mean_tpot_ms", 0.10), residual("A1", "mean_itl_ms", 0.02),
               residual("A1", "mean_ttft_ms", 0.5), residual("A2", "mean_tpot_ms", -0.04)}}},
            {{"left_out", "B"}, {"residuals", {residual("B1", "mean_tpot_ms", 0.08)}}},
            {{"left_out", "C"}, {"residuals", {residual("C1", "mean_tpot_ms", -0.02)}}}}},
          {"residuals", Json::array()}};
}

const MetricSpread& family(const FoldSpread& s, const std::string& name) {
  for (const auto& f : s.families)
    if (f.family == name) return f;
  throw std::runtime_error("no family " + name);
}

TEST(FoldSpread, TheLeftOutErrorsWithEachFoldWeighingTheSame) {
  const FoldSpread s = fold_spread(three_folds());
  EXPECT_EQ(s.leave_out_by, "deployment");
  ASSERT_EQ(s.folds.size(), 3u);
  EXPECT_EQ(s.folds[0], (std::vector<std::string>{"A1", "A2"}));
  const MetricSpread& f = family(s, "per-token time");
  // A: (0.06² + 0.04²) / 2 = 0.0026; B: 0.0064; C: 0.0004 → tau = sqrt(0.0094 / 3) = 0.05598
  EXPECT_NEAR(f.tau, std::sqrt(0.0094 / 3), 1e-12);
  EXPECT_EQ(f.runs, 4);
  ASSERT_EQ(f.groups.size(), 3u);
  EXPECT_EQ(f.groups[0].deployment, "A");
  // without A: sqrt(0.0034) = 0.0583, ×1.645 = 0.0959 covers 0.06 and 0.04
  EXPECT_NEAR(f.groups[0].tau_without, std::sqrt(0.0034), 1e-12);
  EXPECT_EQ(f.groups[0].inside_90, 2);
  // without B: sqrt(0.0015) = 0.0387, ×1.645 = 0.0637 < 0.08
  EXPECT_EQ(f.groups[1].inside_90, 0);
  // without C: sqrt(0.0045) = 0.0671, ×1.645 = 0.110 covers 0.02
  EXPECT_EQ(f.groups[2].inside_90, 1);
  // TTFT only in one fold: no estimate
  EXPECT_EQ(family(s, "time to first token").tau, 0);
  // a fit without folds: nothing
  EXPECT_EQ(family(fold_spread(Json{{"residuals", Json::array()}}), "per-token time").tau, 0);
  EXPECT_EQ(fold_spread(Json{{"residuals", Json::array()}}).leave_out_by, "run");
}

// A: prefill and decode plain, at concurrency 2 and 8; B: both DP attention, at 4; C: KV over TCP.
CalibrationCorpus corpus() {
  CalibrationCorpus c;
  c.file = "corpus.json";
  c.runs = {corpus_run("A1", {{"concurrency", 2}}, {{"mean_tpot_ms", 150, 100}}),
            corpus_run("A2", {{"concurrency", 8}}, {{"mean_tpot_ms", 140, 100}}),
            corpus_run("B1", {{"concurrency", 4}, {"prefill.layout", kDp}, {"decode.layout", kDp}},
                       {{"mean_tpot_ms", 70, 100}}),
            corpus_run("C1", {{"concurrency", 4}, {"kv_transport", "mooncake tcp"}},
                       {{"mean_tpot_ms", 100, 100}})};
  c.spreads = estimate_spreads(c.runs);
  return c;
}

TEST(FoldSpread, CoversARecombinationOfWhatItsFoldsPredictedOnly) {
  const CalibrationCorpus c = corpus();
  const FoldSpread s = fold_spread(three_folds());
  const std::vector<size_t> all = {0, 1, 2, 3};
  EXPECT_EQ(fold_runs_in(s, c, all), all);
  EXPECT_EQ(fold_runs_in(s, c, {1, 3}), (std::vector<size_t>{1, 3}));
  // plain prefill with DP decode at concurrency 4: every value some left-out run had
  EXPECT_EQ(fold_spread_gap(s, coords({{"concurrency", 4}, {"decode.layout", kDp}}), c, all), "");
  EXPECT_EQ(fold_spread_gap(s, coords({{"model", "m2"}}), c, all),
            "no run its folds predicted had model m2");
  EXPECT_EQ(fold_spread_gap(s, coords({{"concurrency", 16}}), c, all),
            "client concurrency 16 lies beyond every run its folds predicted (its folds predicted "
            "2 to 8)");
  EXPECT_EQ(fold_spread_gap(s, coords(), c, {}), "none of its folds' runs is in the corpus");
  // folds by concurrency split deployment A: they predicted points of it, not a new deployment
  Json by_load = three_folds();
  by_load["leave_out_by"] = "concurrency";
  by_load["leave_one_out"][0]["residuals"].erase(3);
  by_load["leave_one_out"].push_back(
      {{"left_out", "A2"}, {"residuals", {residual("A2", "mean_tpot_ms", -0.04)}}});
  EXPECT_EQ(fold_spread_gap(fold_spread(by_load), coords(), c, all),
            "its folds (by concurrency) split a deployment's runs: they predicted points of a "
            "deployment, not a new one");
}

Json overlay_log() {
  return {{"applied",
           {{{"kind", "collective"}, {"overlay", "o.json"}, {"applied", {{"call_us", 1.0}}}}}},
          {"overlays",
           {{{"file", "o.json"},
             {"name", "o"},
             {"provenance",
              {{"runs",
                {{{"measured", "m/A1"}},
                 {{"measured", "m/A2"}},
                 {{"measured", "m/B1"}},
                 {{"measured", "m/C1"}}}}}}}}}};
}

TEST(FoldSpread, TheEnvelopeGivesItsIntervalWhereItCoversElseTheCorpusSpread) {
  const CalibrationCorpus c = corpus();
  const Json log = overlay_log(), fits = {{"o.json", three_folds()}};
  const Json summary = {{"mean_tpot_ms", 20.0}};
  const Coordinates mix = coords({{"concurrency", 4}, {"decode.layout", kDp}});
  const Envelope e = locate(mix, c, log, &fits);
  EXPECT_FALSE(e.inside);  // no measured deployment has plain prefill with DP decode
  const Json j = envelope_json(e, mix, c, summary);
  const Json& m = j["interval_90"]["mean_tpot_ms"];
  const double tau = std::sqrt(0.0094 / 3);
  EXPECT_NEAR(m["sigma_log"].get<double>(), tau, 1e-12);
  EXPECT_NEAR(m["hi"].get<double>(), 20 * std::exp(kZ90 * tau), 1e-9);
  EXPECT_EQ(m["basis"], "spread of the fit's left-out deployments");
  EXPECT_EQ(m["overlay"], "o");
  EXPECT_EQ(m["runs"], 4);
  EXPECT_EQ(m["deployments"], 3);
  ASSERT_EQ(j["overlay_spreads"].size(), 1u);
  EXPECT_EQ(j["overlay_spreads"][0]["covers"], true);
  EXPECT_EQ(j["overlay_spreads"][0]["families"][0]["inside_90_left_out"], 3);
  // A new model: the folds never varied it, so the corpus's spread between deployments, which
  // differs (ln 1.5, ln 1.4 / ln 0.7 / 0 over three deployments).
  const Coordinates other = coords({{"model", "m2"}});
  const Json k = envelope_json(locate(other, c, log, &fits), other, c, summary);
  const double a = (std::pow(std::log(1.5), 2) + std::pow(std::log(1.4), 2)) / 2;
  const double corpus_tau = std::sqrt((a + std::pow(std::log(0.7), 2) + 0) / 3);
  EXPECT_NEAR(k["interval_90"]["mean_tpot_ms"]["sigma_log"].get<double>(), corpus_tau, 1e-12);
  EXPECT_TRUE(k["interval_90"]["mean_tpot_ms"]["overlay"].is_null());
  EXPECT_EQ(k["overlay_spreads"][0]["covers"], false);
  EXPECT_EQ(k["overlay_spreads"][0]["gap"], "no run its folds predicted had model m2");
  // Inside a measured deployment the folds are not read for the interval.
  EXPECT_TRUE(locate(coords({{"concurrency", 4}}), c, log, &fits).overlay_spreads.empty());
}

}  // namespace
}  // namespace pdsim

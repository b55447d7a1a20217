#include <gtest/gtest.h>

#include "calibrate/bench_serving_jsonl.hpp"
#include "reports/validate.hpp"
#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "tests/unit/reports_fixture.hpp"

namespace pdsim {
namespace {

std::string bench_serving_sample(const std::string& name) {
  return data_root() + "/tests/data/bench_serving/" + name;
}

const Json& row(const Json& v, const std::string& key) {
  for (const auto& r : v["metrics"])
    if (r["key"] == key) return r;
  throw std::runtime_error("no row " + key);
}

TEST(ReportsJsonl, LastNonBlankLineByDefaultAndPythonInfinity) {
  const auto rec = read_bench_serving_jsonl(bench_serving_sample("pd_run.jsonl"));
  EXPECT_EQ(rec.line, 3);  // line 2 is blank
  EXPECT_EQ(rec.record["completed"], 3);
  const auto first = read_bench_serving_jsonl(bench_serving_sample("pd_run.jsonl"), 1);
  EXPECT_EQ(first.record["request_rate"], "inf");  // bare Infinity literal
  EXPECT_EQ(first.record["completed"], 8);
}

void expect_error(const std::string& file, std::optional<int> line, const std::string& field,
                  const std::string& what_part) {
  try {
    read_bench_serving_jsonl(bench_serving_sample(file), line);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), bench_serving_sample(file));
    EXPECT_EQ(e.field(), field);
    EXPECT_NE(std::string(e.what()).find(what_part), std::string::npos) << e.what();
  }
}

TEST(ReportsJsonl, ErrorsNameFileAndLine) {
  expect_error("malformed.jsonl", 2, "line 2", "expected one JSON object per line");
  expect_error("malformed.jsonl", 3, "line 3", "expected a JSON object, got array");
  expect_error("malformed.jsonl", std::nullopt, "line 4", "'completed' missing");
  expect_error("malformed.jsonl", 9, "line 9", "the file has 4 lines");
  expect_error("pd_run.jsonl", 2, "line 2", "empty line");
  EXPECT_THROW(read_bench_serving_jsonl(bench_serving_sample("absent.jsonl")), InputError);
  EXPECT_EQ(
      read_bench_serving_jsonl(bench_serving_sample("malformed.jsonl"), 1).record["completed"], 3);
}

TEST(ReportsValidate, PercentErrorsAgainstHandWrittenRecord) {
  const Json pred = bench_summary(testing_fixture::hand_results());
  const Json v =
      validate_against(pred, read_bench_serving_jsonl(bench_serving_sample("pd_run.jsonl")).record);
  // (predicted − measured) / measured: values from reports_summary_test vs pd_run.jsonl line 3
  EXPECT_NEAR(row(v, "duration")["error_pct"].get<double>(), 25.0, 1e-9);          // 2.5 vs 2.0
  EXPECT_NEAR(row(v, "mean_ttft_ms")["error_pct"].get<double>(), 50.0 / 3, 1e-9);  // 3500/3 vs 1000
  EXPECT_NEAR(row(v, "p99_ttft_ms")["error_pct"].get<double>(), -10.0, 1e-9);      // 1980 vs 2200
  EXPECT_NEAR(row(v, "mean_tpot_ms")["error_pct"].get<double>(), -20.0, 1e-9);     // 200 vs 250
  EXPECT_NEAR(row(v, "p99_tpot_ms")["error_pct"].get<double>(), -17.0, 1e-9);      // 249 vs 300
  EXPECT_NEAR(row(v, "mean_itl_ms")["error_pct"].get<double>(), 25.0, 1e-9);       // 300 vs 240
  EXPECT_NEAR(row(v, "accept_length")["error_pct"].get<double>(), -20.0, 1e-9);    // 1.6 vs 2.0
  EXPECT_NEAR(row(v, "completed")["error_pct"].get<double>(), 0.0, 0);
  // the PD quirk: measured median TTFT 0.0 with mean 1000 → flagged, no error computed
  EXPECT_EQ(row(v, "median_ttft_ms")["status"], "untrustworthy");
  EXPECT_TRUE(row(v, "median_ttft_ms")["error_pct"].is_null());
  // older builds have no max_itl_ms
  EXPECT_EQ(row(v, "max_itl_ms")["status"], "missing");
  // 12 latency rows compare: |errors| 4.1667 0 0.25 | 16.667 10 | 20 20 17 | 25 0 5.5556 1
  EXPECT_EQ(v["latency_metrics_compared"], 12);
  EXPECT_NEAR(v["mean_abs_latency_error_pct"].get<double>(),
              (25.0 / 6 + 0.25 + 50.0 / 3 + 10 + 20 + 20 + 17 + 25 + 25.0 / 4.5 + 1) / 12, 1e-9);
  EXPECT_TRUE(v["workload_mismatches"].empty());  // 0.4 req/s, 120000/1000, ratio 1, no limit
}

TEST(ReportsValidate, WorkloadMismatchAndText) {
  const Json pred = bench_summary(testing_fixture::hand_results());
  const Json v = validate_against(
      pred, read_bench_serving_jsonl(bench_serving_sample("pd_run.jsonl"), 1).record);
  ASSERT_FALSE(v["workload_mismatches"].empty());
  EXPECT_EQ(v["workload_mismatches"][0]["key"], "request_rate");
  EXPECT_EQ(v["workload_mismatches"][0]["measured"], "inf");
  const std::string t = validate_text(
      validate_against(pred, read_bench_serving_jsonl(bench_serving_sample("pd_run.jsonl")).record),
      "pd_run.jsonl line 3");
  EXPECT_NE(t.find("(pd_run.jsonl line 3)"), std::string::npos);
  EXPECT_NE(t.find("Mean TTFT (ms)                    1166.67      1000.00     +16.7"),
            std::string::npos);
  EXPECT_NE(t.find("untrustworthy"), std::string::npos);
  EXPECT_NE(validate_text(v).find("warning: workload differs, request_rate"), std::string::npos);
}

}  // namespace
}  // namespace pdsim

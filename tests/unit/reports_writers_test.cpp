#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "reports/lossless_memo.hpp"
#include "reports/report_writer.hpp"
#include "reports/run_outputs.hpp"
#include "reports/text_format.hpp"
#include "reports/text_report.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "tests/unit/reports_fixture.hpp"

namespace pdsim {
namespace {

using testing_fixture::hand_results;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// "{:<40} {:<10}" as Python formats it.
std::string py_line(const std::string& label, const std::string& value) {
  return label + std::string(40 - label.size(), ' ') + " " + value +
         std::string(value.size() < 10 ? 10 - value.size() : 0, ' ');
}

// The CSV writers' number text is exactly what a JSON document holds for the same double.
TEST(ReportsWriters, LosslessNumbersAreTheJsonText) {
  for (double v : {0.0, -0.0, 1.0, 0.1, 1e-7, 123456789.123, 5e-324, 1.7976931348623157e308,
                   -2.5e-3, 1e21, 3.0000000000000004}) {
    std::string out = "x";
    append_lossless(out, v);
    EXPECT_EQ(out, "x" + Json(v).dump()) << v;
    EXPECT_EQ(lossless(v), Json(v).dump());
  }
  EXPECT_EQ(lossless(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(lossless(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(lossless(std::nan("")), "nan");
  EXPECT_EQ(lossless(1.0), "1.0");
  EXPECT_EQ(lossless(1e-7), "1e-07");
}

// The memo's text is append_lossless's, through collisions (8 slots), repeats, the longest
// text (24 characters: past a slot's capacity) and non-finite values.
TEST(ReportsText, LosslessMemoMatchesAppendLossless) {
  LosslessMemo memo(3);
  const std::vector<double> values = {
      0.0,  -0.0, 1.0,    0.1,     1e-7,    -2.2250738585072014e-308,
      0.1,  1.0,  5e-324, 1e21,    -0.0,    std::nan(""),
      -1.5, 0.1,  1e-7,   1.0 / 3, 2.0 / 3, std::numeric_limits<double>::infinity()};
  for (int round = 0; round < 3; ++round) {
    for (double v : values) {
      std::string got = "x", want = "x";
      memo.append(got, v);
      append_lossless(want, v);
      EXPECT_EQ(got, want) << v;
    }
  }
}

TEST(ReportsText, BenchServingBlockLayout) {
  const auto l = lines_of(bench_text_block(bench_summary(hand_results())));
  // 13 header lines + accept length + 4 section rules + 13 metric lines + footer
  ASSERT_EQ(l.size(), 32u);
  EXPECT_EQ(l[0], "============ Serving Benchmark Result ============");
  EXPECT_EQ(l[1], py_line("Backend:", "pdsim"));
  EXPECT_EQ(l[2], py_line("Traffic request rate:", "0.4"));
  EXPECT_EQ(l[3], py_line("Max request concurrency:", "not set"));
  EXPECT_EQ(l[4], py_line("Successful requests:", "3"));
  EXPECT_EQ(l[5], py_line("Benchmark duration (s):", "2.50"));
  EXPECT_EQ(l[6], py_line("Total input tokens:", "600"));
  EXPECT_EQ(l[7], py_line("Total generated tokens:", "11"));
  EXPECT_EQ(l[8], py_line("Request throughput (req/s):", "1.20"));
  EXPECT_EQ(l[11], py_line("Total token throughput (tok/s):", "244.40"));
  EXPECT_EQ(l[12], py_line("Concurrency:", "2.00"));
  EXPECT_EQ(l[13], py_line("Accept length:", "1.60"));
  EXPECT_EQ(l[14], "----------------End-to-End Latency----------------");
  EXPECT_EQ(l[15], py_line("Mean E2E Latency (ms):", "1666.67"));  // 5000/3
  EXPECT_EQ(l[17], "---------------Time to First Token----------------");
  EXPECT_EQ(l[18], py_line("Mean TTFT (ms):", "1166.67"));  // 3500/3
  EXPECT_EQ(l[20], py_line("P99 TTFT (ms):", "1980.00"));
  EXPECT_EQ(l[21], "-----Time per Output Token (excl. 1st token)------");
  EXPECT_EQ(l[22], py_line("Mean TPOT (ms):", "200.00"));
  EXPECT_EQ(l[25], "---------------Inter-Token Latency----------------");
  EXPECT_EQ(l[28], py_line("P95 ITL (ms):", "475.00"));
  EXPECT_EQ(l[30], py_line("Max ITL (ms):", "500.00"));
  EXPECT_EQ(l[31], std::string(50, '='));
}

TEST(ReportsText, AcceptLengthOnlyWhenSpeculativeAndBreakdownSection) {
  SimResults r = hand_results();
  r.speculative = false;
  const std::string text = render_report("text", r, bench_summary(r));
  EXPECT_EQ(text.find("Accept length:"), std::string::npos);
  const auto l = lines_of(text);
  // breakdown after the block: largest term first, then the total 300+500+400+350+50
  // without the accept-length line the block is 31 lines; " pdsim breakdown " (17 chars)
  // centred in 50: 16 dashes left, 17 right
  ASSERT_GT(l.size(), 32u);
  EXPECT_EQ(l[30], std::string(50, '='));
  EXPECT_EQ(l[31], "---------------- pdsim breakdown -----------------");
  EXPECT_EQ(l[32], "Decode forward, mean per forward (us):");
  const size_t moe = text.find("  moe_compute"), disp = text.find("  dispatch");
  ASSERT_NE(moe, std::string::npos);
  EXPECT_LT(moe, disp);
  EXPECT_NE(text.find(py_line("  total", "1600.00")), std::string::npos);
  EXPECT_NE(text.find(py_line("KV transfer mean (ms):", "750.00")), std::string::npos);
  EXPECT_NE(text.find(py_line("Prefill queue wait mean (ms):", "125.00")), std::string::npos);
}

TEST(ReportsCsv, RequestsHeaderAndRows) {
  const SimResults r = hand_results();
  const auto l = lines_of(render_report("csv-requests", r, bench_summary(r)));
  ASSERT_EQ(l.size(), 5u);
  EXPECT_EQ(l[0],
            "id,arrival_s,input_len,output_len,completed,ttft_ms,e2e_ms,tpot_ms,chunks,"
            "prefill_instance,decode_instance,decode_rank,prefill_start_s,prefill_end_s,"
            "kv_start_s,kv_end_s,decode_reserved_s,finish_s");
  // r2: ttft 1.5 − 1.0 = 0.5 s, e2e 2.25 − 1.0 = 1.25 s, tpot 0.75 / 5 = 0.15 s
  EXPECT_EQ(l[3], "2,1.0,300,6,1,500.0,1250.0,150.0,3,0,1,3,1.0,1.25,1.25,1.375,1.125,2.25");
  // r1: output 1 → no tpot; r3: not completed, unset timestamps left empty
  EXPECT_EQ(l[2], "1,0.5,200,1,1,2000.0,2000.0,,1,-1,-1,-1,,,,,,2.5");
  EXPECT_EQ(l[4], "3,1.25,400,8,0,,,,0,-1,-1,-1,,,,,,");
}

TEST(ReportsCsv, ItlRowsArePooledSamples) {
  const SimResults r = hand_results();
  const auto l = lines_of(render_report("csv-itl", r, bench_summary(r)));
  ASSERT_EQ(l.size(), 6u);  // header + 3 gaps of r0 + 2 of r2
  EXPECT_EQ(l[0], "request_id,chunk,time_s,itl_ms,tokens");
  EXPECT_EQ(l[1], "0,1,1.125,125.0,1");
  EXPECT_EQ(l[5], "2,2,2.25,250.0,3");
}

TEST(ReportsRegistry, AllFormatsRegisteredAndUnknownNamed) {
  for (const char* n : {"text", "json", "csv-requests", "csv-itl", "markdown"})
    EXPECT_TRUE(ReportWriterRegistry::instance().contains(n)) << n;
  const SimResults r = hand_results();
  EXPECT_THROW(render_report("html5", r, Json::object()), InputError);
  const std::string md = render_report("markdown", r, bench_summary(r));
  EXPECT_NE(md.find("| TTFT (ms) | 1166.67 | 1000.00 | 1980.00 |"), std::string::npos);
}

TEST(ReportsRunOutputs, WritesFourFilesDeterministically) {
  const std::string dir = ::testing::TempDir() + "/pdsim_reports_run";
  std::filesystem::remove_all(dir);
  const SimResults r = hand_results();
  const Json summary = write_run_outputs(r, dir);
  const std::string first = read_file(dir + "/summary.json");
  EXPECT_EQ(first, summary.dump(2) + "\n");
  EXPECT_EQ(read_file(dir + "/requests.csv"), render_report("csv-requests", r, summary));
  EXPECT_EQ(read_file(dir + "/itl.csv"), render_report("csv-itl", r, summary));
  const Json resolved = Json::parse(read_file(dir + "/scenario.resolved.json"));
  EXPECT_EQ(resolved["scenario"]["workload"]["input_len"], 120000);
  EXPECT_EQ(resolved["profiles"]["fabric_profile"]["alpha_us"], 5);
  write_run_outputs(r, dir);
  EXPECT_EQ(read_file(dir + "/summary.json"), first);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pdsim

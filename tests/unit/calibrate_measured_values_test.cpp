// Measured values are physical: the importers and the bench_serving reader behind `pdsim
// validate` reject a negative or non-finite latency, bandwidth, throughput or size with the file
// and line, and a nested bomb or a non-UTF-8 token is an InputError, never a crash at dump time.
#include <gtest/gtest.h>

#include "calibrate/bench_serving_jsonl.hpp"
#include "calibrate/measurement.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

std::string import_error(const std::string& format, const std::string& text) {
  auto imp = MeasurementImporterRegistry::instance().create(format, "test", "format");
  try {
    imp->parse(text, "m.txt").dump();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MeasuredValues, NcclTestsRejectsNegativeTimeAndBandwidth) {
  const std::string ok = "1048576 262144 float sum -1 42.10 24.91 43.59 0 41.80 25.09 43.90 0\n";
  EXPECT_EQ(import_error("nccl-tests", ok), "");  // root -1 is nccl-tests' "no root"
  EXPECT_EQ(
      import_error("nccl-tests",
                   "# x\n1048576 262144 float sum -1 -42.1 24.91 43.59 0 41.80 25.09 43.90 0\n"),
      "m.txt: field 'line 2': expected a finite non-negative time (us) (a measured "
      "quantity), got -42.1");
  EXPECT_EQ(import_error("nccl-tests",
                         "1048576 262144 float sum -1 42.10 24.91 -43.59 0 41.80 25.09 43.90 0\n"),
            "m.txt: field 'line 1': expected a finite non-negative busbw (GB/s) (a measured "
            "quantity), got -43.59");
}

TEST(MeasuredValues, PerftestFabtestsDeepepRejectNegatives) {
  EXPECT_EQ(import_error("perftest",
                         "#bytes #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec] "
                         "t_stdev[usec]\n2 1000 1.76 4.38 -1.81 1.82 0.05\n"),
            "m.txt: field 'line 2': expected a finite non-negative t_typical (a measured "
            "quantity), got -1.81");
  EXPECT_EQ(import_error("fi_pingpong",
                         "bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec\n"
                         "64 10k =10k 1.2m 0.05s -25.60 2.50 0.40\n"),
            "m.txt: field 'line 2': expected a finite non-negative MB/sec (a measured quantity), "
            "got -25.6");
  EXPECT_EQ(import_error("deepep",
                         "[rank 0] Dispatch bandwidth: 36.10 GB/s, avg_t=-226.00 us | Combine "
                         "bandwidth: 48.00 GB/s, avg_t=293.00 us\n"),
            "m.txt: field 'line 1': expected a finite non-negative value (GB/s, us or a count) (a "
            "measured quantity), got -226");
  EXPECT_EQ(import_error("pplx", R"({"dispatch": {"both": {"p50": -1}}})"),
            "m.txt: field 'dispatch.both.p50': expected a non-negative number, got -1");
}

TEST(MeasuredValues, NonUtf8TokensAreInputErrors) {
  // Before: accepted, then `pdsim calibrate import` died in dump() (json type_error 316).
  EXPECT_EQ(import_error("nccl-tests", "1 1 fl\xff sum -1 1 1 1 0 1 1 1 0\n"),
            "m.txt: field 'line 1': expected printable UTF-8 text, got 'fl\\xff'");
}

TEST(MeasuredValues, BenchServingRejectsNegativeLatency) {
  // Before: `pdsim validate` scored this TPOT of -12.6 ms as "+156.8 %".
  const std::string line = R"({"completed": 8, "duration": 10.0, "mean_tpot_ms": -12.6})";
  try {
    parse_bench_serving_line(line, "run.jsonl", 3);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "run.jsonl: field 'line 3: mean_tpot_ms': expected a finite non-negative number "
                 "(a measured latency, throughput, count or duration) or null, got -12.6");
  }
  EXPECT_EQ(import_error("bench_serving", R"({"completed": 8, "p99_itl_ms": NaN})"),
            "m.txt: field 'line 1: p99_itl_ms': expected a finite non-negative number (a measured "
            "latency, throughput, count or duration) or null, got \"NaN\"");
  // null (bench_serving's None) and non-measured keys stay as they are.
  EXPECT_EQ(import_error("bench_serving",
                         R"({"completed": 8, "accept_length": null, "request_rate": Infinity})"),
            "");
}

TEST(MeasuredValues, BenchServingExtraKeysCannotNestWithoutBound) {
  // Before: SIGSEGV (10^6 levels) in the recursive destructor / dump of the kept keys.
  const std::string bomb = R"({"completed": 8, "server_info": )" + std::string(1000000, '[') + "\n";
  const std::string m = import_error("bench_serving", bomb);
  EXPECT_EQ(m.substr(0, 50), "m.txt: field 'line 1: server_info[0][0][0][0][0][0");
  EXPECT_NE(m.find("': expected JSON nested at most 128 levels deep"), std::string::npos) << m;
  EXPECT_EQ(import_error("bench_serving", R"({"completed": 8, "completed": 9})"),
            "m.txt: field 'line 1: completed': duplicate key (each key may appear once per "
            "object; which value was meant is ambiguous)");
}

}  // namespace
}  // namespace pdsim

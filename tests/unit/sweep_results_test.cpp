#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/sweep/results_file.hpp"

namespace pdsim {
namespace {

class SweepResults : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pdsim_sweep_results_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static Json line(const std::string& sweep, int point, const std::string& status = "ok") {
    return Json{{"sweep", sweep},
                {"point", point},
                {"id", "id" + std::to_string(point)},
                {"points_total", 4},
                {"status", status}};
  }
  std::filesystem::path dir_;
};

TEST_F(SweepResults, AppendedLinesAreReadBackForResume) {
  {
    ResultsAppender out(path("r.jsonl"));
    out.append(line("s1", 2));
    out.append(line("s1", 0));
  }
  const auto done = load_results_for_resume(path("r.jsonl"), "s1");
  ASSERT_EQ(done.size(), 2u);
  EXPECT_TRUE(done.count(0) && done.count(2));
  EXPECT_TRUE(load_results_for_resume(path("absent.jsonl"), "s1").empty());
}

TEST_F(SweepResults, TornLastLineIsCutAndOtherSweepsRefused) {
  const std::string good = line("s1", 0).dump() + "\n" + line("s1", 1).dump() + "\n";
  write_file_atomic(path("r.jsonl"), good + R"({"sweep":"s1","point":2,"id":"id)");
  const auto done = load_results_for_resume(path("r.jsonl"), "s1");
  EXPECT_EQ(done.size(), 2u);
  EXPECT_EQ(read_file(path("r.jsonl")), good);  // the torn line is gone, nothing else
  // A complete line of another sweep is refused, naming the file and the line.
  write_file_atomic(path("o.jsonl"), good + line("s2", 2).dump() + "\n");
  try {
    load_results_for_resume(path("o.jsonl"), "s1");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("o.jsonl: field 'line 3': belongs to sweep s2"),
              std::string::npos)
        << e.what();
  }
  // Damage before the last line is an error, not silently dropped.
  write_file_atomic(path("d.jsonl"), "garbage\n" + good);
  EXPECT_THROW(load_results_for_resume(path("d.jsonl"), "s1"), InputError);
}

TEST_F(SweepResults, PointIndexOutsideIntIsRefusedNotWrapped) {
  // 2^32 used to wrap to point 0 under get<int>; a negative index is no point either.
  const std::string good = line("s1", 0).dump() + "\n";
  for (const char* point : {"4294967296", "-1", "18446744073709551615"}) {
    write_file_atomic(path("p.jsonl"), std::string(R"({"sweep":"s1","point":)") + point +
                                           R"(,"id":"x"})" + "\n" + good);
    try {
      load_results_for_resume(path("p.jsonl"), "s1");
      ADD_FAILURE() << "expected an InputError for point " << point;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(
                    "p.jsonl: field 'line 1': not a sweep results line (file damaged?)"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST_F(SweepResults, SecondWriterIsRefused) {
  ResultsAppender a(path("r.jsonl"));
  EXPECT_THROW(ResultsAppender b(path("r.jsonl")), InputError);
}

TEST_F(SweepResults, MergeDedupesSortsAndChecksTheSweep) {
  write_file_atomic(path("a.jsonl"),
                    line("s1", 3).dump() + "\n" + line("s1", 0, "error").dump() + "\n");
  write_file_atomic(path("b.jsonl"), line("s1", 0).dump() + "\n" + line("s1", 3).dump() + "\n");
  std::vector<int> missing;
  const auto merged =
      merge_results({path("a.jsonl"), path("b.jsonl")}, path("all.jsonl"), &missing);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0]["point"], 0);
  EXPECT_EQ(merged[0]["status"], "ok");  // the ok line wins over the error line of point 0
  EXPECT_EQ(merged[1]["point"], 3);
  EXPECT_EQ(missing, (std::vector<int>{1, 2}));  // points_total 4
  EXPECT_EQ(read_results(path("all.jsonl")).size(), 2u);
  write_file_atomic(path("c.jsonl"), line("s2", 1).dump() + "\n");
  try {
    merge_results({path("a.jsonl"), path("c.jsonl")}, path("x.jsonl"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not the same sweep"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path("x.jsonl")));
}

}  // namespace
}  // namespace pdsim

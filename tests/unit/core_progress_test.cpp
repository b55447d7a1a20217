// sim/core/progress: what each mode writes, with a clock the test moves (one second per finished
// task), and the process pool counting its tasks into the open Progress.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/core/process_pool.hpp"
#include "sim/core/progress.hpp"

namespace pdsim {
namespace progress_test {

// A FILE* backed by memory, read back as a string.
struct Capture {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  ~Capture() {
    if (f) std::fclose(f);
    std::free(buf);
  }
  std::string text() {
    std::fflush(f);
    return std::string(buf, len);
  }
};

// `n` tasks finishing `step_s` apart on the test clock `t`.
void finish_tasks(Progress& p, double& t, int n, double step_s) {
  for (int i = 0; i < n; ++i) {
    t += step_s;
    p.advance();
  }
}

TEST(Progress, LinesModeWritesEachTenthThenTheClosingLine) {
  Capture c;
  double t = 0;
  {
    Progress p("seeds", ProgressMode::lines, 20, c.f, [&] { return t; });
    finish_tasks(p, t, 20, 1.0);
  }
  // A tenth is 2 tasks; at done = 2 (t = 2 s) the ETA is 2 s / 2 × 18 = 18 s. No line at 20/20
  // from advance: the closing line says "done in" the elapsed 20 s.
  std::string want;
  for (int d = 2; d <= 18; d += 2)
    want += "seeds: " + std::to_string(d) + "/20 (" + std::to_string(d * 5) + " %), ETA 0m" +
            (20 - d < 10 ? "0" : "") + std::to_string(20 - d) + "s\n";
  want += "seeds: 20/20 (100 %), done in 0m20s\n";
  EXPECT_EQ(c.text(), want);
}

TEST(Progress, GrowingTotalRestartsTheTenthsOfTheNewTotal) {
  Capture c;
  double t = 0;
  {
    Progress p("simulations", ProgressMode::lines, std::nullopt, c.f, [&] { return t; });
    p.add_total(2);
    t = 1;
    p.advance();  // 1/2: five tenths
    t = 2;
    p.advance();  // 2/2: the whole, no line (a second batch may come)
    p.add_total(2);
    EXPECT_EQ(p.total(), 4u);
    t = 3;
    p.advance();  // 3/4: seven tenths, past the five of 2/4
    t = 4;
    p.advance();
  }
  EXPECT_EQ(c.text(),
            "simulations: 1/2 (50 %), ETA 0m01s\n"
            "simulations: 3/4 (75 %), ETA 0m01s\n"
            "simulations: 4/4 (100 %), done in 0m04s\n");
}

TEST(Progress, BarStaysQuietForWorkUnderASecond) {
  Capture c;
  double t = 0;
  {
    Progress p("x", ProgressMode::bar, 4, c.f, [&] { return t; });
    finish_tasks(p, t, 4, 0.2);
  }
  EXPECT_EQ(c.text(), "");
}

TEST(Progress, BarRedrawsInPlaceAndEndsItsLine) {
  Capture c;
  double t = 0;
  {
    Progress p("x", ProgressMode::bar, 3, c.f, [&] { return t; });
    t = 2;
    p.advance();  // 1/3 at 2 s: ETA 2 s × 2 = 4 s; 10 of 30 marks
    t = 3;
    p.advance();
    t = 4;
    p.advance();
  }
  const std::string ten(10, '#'), dots(20, '.');
  EXPECT_EQ(c.text(), "\rx [" + ten + dots + "] 1/3 ETA 0m04s   " + "\rx [" + std::string(20, '#') +
                          std::string(10, '.') + "] 2/3 ETA 0m02s   " + "\rx [" +
                          std::string(30, '#') + "] 3/3    " + "\rx [" + std::string(30, '#') +
                          "] 3/3 done in 0m04s   \n");
}

TEST(Progress, OffWritesNothingAndTheOpenOneIsNested) {
  Capture c;
  EXPECT_EQ(Progress::current(), nullptr);
  {
    Progress outer("a", ProgressMode::off, std::nullopt, c.f);
    EXPECT_EQ(Progress::current(), &outer);
    {
      Progress inner("b", ProgressMode::off, 5, c.f);
      EXPECT_EQ(Progress::current(), &inner);
      inner.add_total(7);  // the owner fixed it
      EXPECT_EQ(inner.total(), 5u);
    }
    EXPECT_EQ(Progress::current(), &outer);
  }
  EXPECT_EQ(Progress::current(), nullptr);
  EXPECT_EQ(c.text(), "");
}

TEST(Progress, TheProcessPoolCountsItsTasksIntoTheOpenOne) {
  Progress p("tasks", ProgressMode::off);
  // Each child checks that it does not see its parent's Progress (it must never draw).
  std::vector<bool> child_saw_none(3);
  run_in_processes(
      3, 2, [](size_t) { return Json(Progress::current() == nullptr); },
      [&](size_t i, TaskOutcome o) { child_saw_none[i] = o.ok && o.result.get<bool>(); });
  run_in_processes(
      2, 1, [](size_t) { return Json(0); }, [](size_t, TaskOutcome) {});
  EXPECT_EQ(p.total(), 5u);
  EXPECT_EQ(p.done(), 5u);
  EXPECT_EQ(child_saw_none, (std::vector<bool>{true, true, true}));
}

TEST(Progress, ModeNames) {
  EXPECT_EQ(progress_mode("bar"), ProgressMode::bar);
  EXPECT_EQ(progress_mode("lines"), ProgressMode::lines);
  EXPECT_EQ(progress_mode("off"), ProgressMode::off);
  EXPECT_THROW(progress_mode("loud"), std::invalid_argument);
}

}  // namespace progress_test
}  // namespace pdsim

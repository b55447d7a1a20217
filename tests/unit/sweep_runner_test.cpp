#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "sim/core/data_path.hpp"
#include "sim/core/error.hpp"
#include "sim/sweep/results_file.hpp"
#include "sim/sweep/sweep_runner.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace pdsim {
namespace {

// A sweep over workload.request_rate (`rates`, a JSON array) of the quick scenario, written to
// and loaded from `dir` (created).
SweepSpec rate_sweep(const std::filesystem::path& dir, const std::string& rates) {
  std::filesystem::create_directories(dir);
  const std::string sweep = (dir / "s.json").string();
  std::ofstream(sweep)
      << R"({"base": ")" << data_root()
      << R"(/scenarios/glm51-2p2d-efa-quick.json", "grid": {"workload.request_rate": )" << rates
      << "}}";
  return load_sweep(sweep);
}

// A worker that throws, one killed by a signal and one that sends a non-object each become an
// "error" line naming why; the sweep goes on and writes every point once.
TEST(SweepRunner, FailedWorkersBecomeErrorLines) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("pdsim_sweep_runner_" + std::to_string(::getpid()));
  const SweepSpec spec = rate_sweep(dir, "[0.5, 1, 2, 4]");
  ASSERT_EQ(spec.points.size(), 4u);
  SweepRunOptions opt;
  opt.jobs = 2;
  opt.results_path = (dir / "r.jsonl").string();
  opt.evaluate = [](const SweepSpec& s, const SweepPoint& p) -> Json {
    if (p.index == 1) throw std::runtime_error("bad point");
    if (p.index == 2) ::raise(SIGKILL);
    if (p.index == 3) return Json::array();
    return Json{{"sweep", s.hash}, {"point", p.index}, {"id", p.id}, {"status", "ok"}};
  };
  std::ostringstream log;
  const SweepRunStats st = run_sweep(spec, opt, log);
  EXPECT_EQ(st.ran, 4);
  EXPECT_EQ(st.errors, 3);
  std::map<int, Json> by_point;
  for (const Json& l : read_results(opt.results_path)) by_point[l.at("point").get<int>()] = l;
  ASSERT_EQ(by_point.size(), 4u);
  EXPECT_EQ(by_point[0].at("status"), "ok");
  EXPECT_EQ(by_point[1].at("reason"), "internal error (please report it): bad point");
  EXPECT_EQ(by_point[2].at("reason"), "worker process died with signal 9 (Killed)");
  EXPECT_EQ(by_point[3].at("reason"), "worker process returned no result");
  for (int k = 1; k <= 3; ++k) EXPECT_EQ(by_point[k].at("status"), "error");
  std::filesystem::remove_all(dir);
}

// Issue 31: a second sweep on a results file another sweep is writing is refused without
// touching it (it used to cut the first sweep's half-written last line before the lock check).
TEST(SweepRunner, ASecondSweepLeavesTheLockedFileAlone) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("pdsim_sweep_lock_" + std::to_string(::getpid()));
  const SweepSpec spec = rate_sweep(dir, "[0.5, 1]");
  SweepRunOptions opt;
  opt.results_path = (dir / "r.jsonl").string();
  const std::string torn = R"({"sweep": ")" + spec.hash + R"(", "point": 0, "id": "a", "sta)";
  std::ofstream(opt.results_path) << torn;
  {
    ResultsAppender first(opt.results_path);  // the first sweep, mid-line
    std::ostringstream log;
    try {
      run_sweep(spec, opt, log);
      ADD_FAILURE() << "the second sweep ran";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("another sweep is writing this results file"),
                std::string::npos)
          << e.what();
    }
  }
  std::ifstream in(opt.results_path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), torn);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pdsim

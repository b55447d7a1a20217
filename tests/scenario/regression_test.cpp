// Examples as tests: every file under scenarios/ is run and its output compared with
// tests/scenario/expected/<its path under scenarios/>, by kind (the file's "schema"):
//   pdsim.scenario/1           the bench_serving summary (without the verbose "pdsim" block) plus
//                              the mean forward breakdown;
//   pdsim.fabric_experiment/1  the `pdsim fabric` summary without its wall-clock fields;
//   pdsim.sweep/1              the sweep analysis (frontier, cheapest point, counts);
//   no schema, "Instances"     a describe-instance-topology file: its `pdsim import topology`
//                              placement.
// Files in kSlow (minutes) run only under the ctest label `slow` (`./dev bench` runs them).
// Under ASan/UBSan (`./dev test-asan`, PDSIM_SANITIZE) a serving scenario of more than
// kSanitizedPrompts prompts runs that many instead (not one with elastic joins or autoscaling,
// whose events come late in the run): the sanitizers check the memory and arithmetic of its whole
// code path, which a short run walks as a long one does, and the Release build (`./dev test`)
// compares the full run's values. The short run must write the expected file's fields, every
// number finite, and complete all its requests where the full run completes all of its own. It
// took these tests from 504 s to 187 s of the ASan stage's test time (95 s wall at -j2; 2 cores,
// 2026-12-06). After an intended change, update the expectations explicitly and review the diff:
//   PDSIM_UPDATE_EXPECTED=1 build/pdsim_scenario_tests [--gtest_filter=...]
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/data_path.hpp"
#include "sim/import/topology_placement.hpp"
#include "sim/packet/fabric_run.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"
#include "sim/sweep/analysis.hpp"
#include "sim/sweep/results_file.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace pdsim {
namespace {

namespace fs = std::filesystem;

// Paths under scenarios/ whose run takes minutes.
const std::vector<std::string> kSlow = {"sweeps/glm51-efa-family-1000.json"};

std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  const fs::path root = fs::path(data_root()) / "scenarios";
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".json")
      out.push_back(fs::relative(e.path(), root).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

bool is_slow(const std::string& rel) {
  return std::find(kSlow.begin(), kSlow.end(), rel) != kSlow.end();
}

// Compares numbers with a relative tolerance (outputs are deterministic; the tolerance only
// absorbs last-bit differences between compilers and optimisation levels).
void expect_same(const Json& want, const Json& got, const std::string& path) {
  if (want.is_number() && got.is_number()) {
    const double a = want.get<double>(), b = got.get<double>();
    EXPECT_LE(std::fabs(a - b), 1e-9 * std::max(1.0, std::fabs(a)))
        << path << ": expected " << a << ", got " << b;
    return;
  }
  ASSERT_EQ(want.type(), got.type()) << path;
  if (want.is_object()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      ASSERT_TRUE(got.contains(it.key())) << path << "." << it.key() << " missing";
      expect_same(it.value(), got[it.key()], path + "." + it.key());
    }
    for (auto it = got.begin(); it != got.end(); ++it)
      EXPECT_TRUE(want.contains(it.key()))
          << path << "." << it.key() << " is new (update expectations)";
  } else if (want.is_array()) {
    ASSERT_EQ(want.size(), got.size()) << path;
    for (size_t i = 0; i < want.size(); ++i)
      expect_same(want[i], got[i], path + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(want, got) << path;
  }
}

#ifdef PDSIM_SANITIZE
constexpr int kSanitizedPrompts = 64;
#else
constexpr int kSanitizedPrompts = 0;  // off: every scenario runs as written
#endif

// The --set that shortens the run under the sanitizers; empty when it runs as written.
std::vector<std::string> sanitized_overrides(const std::string& file) {
  if (kSanitizedPrompts == 0) return {};
  const Json doc = JsonNode::load_file(file).raw();
  if (!doc.is_object() || doc.value("schema", "") != "pdsim.scenario/1") return {};
  const Scenario s = load_run_scenario(file, {}, std::nullopt);
  const ElasticConfig& el = s.elastic;
  const bool elastic = !el.decode_joins_s.empty() || !el.prefill_joins_s.empty() ||
                       !el.decode_leaves_s.empty() || !el.prefill_leaves_s.empty() ||
                       el.autoscale_role != "none";
  if (elastic || s.workload.num_prompts <= kSanitizedPrompts) return {};
  return {"workload.num_prompts=" + std::to_string(kSanitizedPrompts)};
}

Json scenario_output(const std::string& file, const std::vector<std::string>& overrides) {
  SimResults r = run_scenario_file(file, overrides, std::nullopt);
  Json summary = bench_summary(r);
  summary.erase("pdsim");  // provenance and extras: checked by unit tests, too verbose to pin here
  summary["forward_breakdown_us"] = r.extras["forward_breakdown_us"];
  return summary;
}

Json fabric_output(const std::string& file, const std::string& rel) {
  Json s = packet::run_fabric_experiment(JsonNode::load_file(file)).summary;
  s.erase("wall_s");  // the only fields that differ between identical runs
  s.erase("events_per_s");
  s["experiment"] = "scenarios/" + rel;  // not the machine's absolute path
  return s;
}

Json sweep_output(const std::string& file) {
  const SweepSpec spec = load_sweep(file);
  const fs::path dir =
      fs::temp_directory_path() / ("pdsim-regression-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  SweepRunOptions opt;
  opt.jobs = 2;
  opt.results_path = (dir / "results.jsonl").string();
  std::ostringstream log;
  run_sweep(spec, opt, log);
  const Json a = analyze_sweep(spec, read_results(opt.results_path));
  fs::remove_all(dir);
  return a;
}

Json output_of(const std::string& rel) {
  const std::string file = data_root() + "/scenarios/" + rel;
  const Json doc = JsonNode::load_file(file).raw();
  const std::string schema =
      doc.is_object() && doc.contains("schema") ? doc["schema"].get<std::string>() : "";
  if (schema == "pdsim.scenario/1") return scenario_output(file, sanitized_overrides(file));
  if (schema == "pdsim.fabric_experiment/1") return fabric_output(file, rel);
  if (schema == "pdsim.sweep/1") return sweep_output(file);
  if (schema.empty() && doc.is_object() && doc.contains("Instances"))
    return placement_from_aws_topology(read_file(file), "scenarios/" + rel);
  ADD_FAILURE() << rel << ": no regression runner for schema '" << schema << "'";
  return Json();
}

// The short run's checks (kSanitizedPrompts): `want`'s fields, every number finite.
void expect_same_shape(const Json& want, const Json& got, const std::string& path) {
  if (want.is_number() && got.is_number()) {
    EXPECT_TRUE(std::isfinite(got.get<double>())) << path << " = " << got;
    return;
  }
  if (want.is_null() || got.is_null()) return;  // e.g. max_concurrency, or no sample in a short run
  ASSERT_EQ(want.type(), got.type()) << path;
  if (!want.is_object()) return;
  for (auto it = want.begin(); it != want.end(); ++it) {
    ASSERT_TRUE(got.contains(it.key())) << path << "." << it.key() << " missing";
    expect_same_shape(it.value(), got[it.key()], path + "." + it.key());
  }
  for (auto it = got.begin(); it != got.end(); ++it)
    EXPECT_TRUE(want.contains(it.key())) << path << "." << it.key() << " is new";
}

class ScenarioRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioRegression, OutputMatchesExpected) {
  const std::string rel = GetParam();
  const std::string expected_file = data_root() + "/tests/scenario/expected/" + rel;
  const std::string file = data_root() + "/scenarios/" + rel;
  if (const auto overrides = sanitized_overrides(file);
      !overrides.empty() && fs::exists(expected_file)) {
    const Json want = Json::parse(read_file(expected_file));
    const Json got = scenario_output(file, overrides);
    expect_same_shape(want, got, rel);
    const int done = got["completed"].get<int>();
    const int full = load_run_scenario(file, {}, std::nullopt).workload.num_prompts;
    if (want["completed"].get<int>() == full) {
      EXPECT_EQ(done, kSanitizedPrompts) << rel << ": the full run completes every request";
    } else {
      EXPECT_LE(done, kSanitizedPrompts) << rel;
    }
    return;
  }
  const Json got = output_of(rel);
  const char* update = std::getenv("PDSIM_UPDATE_EXPECTED");
  if (update && std::string(update) == "1") {
    fs::create_directories(fs::path(expected_file).parent_path());
    write_file_atomic(expected_file, got.dump(2) + "\n");
    GTEST_SKIP() << "updated " << expected_file;
  }
  ASSERT_TRUE(fs::exists(expected_file))
      << expected_file << " missing: run with PDSIM_UPDATE_EXPECTED=1";
  expect_same(Json::parse(read_file(expected_file)), got, rel);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioRegression, ::testing::ValuesIn(scenario_files()),
                         [](const auto& p) {
                           std::string n = (is_slow(p.param) ? "slow_" : "") + p.param;
                           n = n.substr(0, n.size() - 5);  // without ".json"
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace pdsim

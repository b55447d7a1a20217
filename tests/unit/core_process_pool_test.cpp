#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/fork_call.hpp"
#include "sim/core/process_pool.hpp"

namespace pdsim {
namespace {

std::vector<TaskOutcome> run_all(size_t n, int jobs, const std::function<Json(size_t)>& task,
                                 std::vector<size_t>* order = nullptr) {
  std::vector<TaskOutcome> out(n);
  std::vector<int> calls(n, 0);
  run_in_processes(n, jobs, task, [&](size_t i, TaskOutcome o) {
    ++calls[i];
    if (order) order->push_back(i);
    out[i] = std::move(o);
  });
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(calls[i], 1) << "task " << i;
  return out;
}

TEST(ProcessPool, EveryTaskOnceWithItsResult) {
  const auto out = run_all(7, 3, [](size_t i) { return Json{{"square", i * i}}; });
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_TRUE(out[i].ok) << out[i].error;
    EXPECT_EQ(out[i].result.at("square").get<size_t>(), i * i);
  }
}

// Binary members of a result object travel raw after the CBOR; other members are untouched.
TEST(ProcessPool, BinaryMembersComeBackByteForByte) {
  const auto out = run_all(2, 2, [](size_t i) {
    std::vector<uint8_t> a(100000 + i), b = {0, 255, 7};
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<uint8_t>(k * 31 + i);
    return Json{{"a", Json::binary(a)},
                {"b", Json::binary(b)},
                {"n", i},
                {"tail", {"a", 0, 1}},
                {"nested", {{"x", Json::binary(b)}}}};
  });
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_TRUE(out[i].ok) << out[i].error;
    const auto& a = out[i].result.at("a").get_binary();
    ASSERT_EQ(a.size(), 100000 + i);
    for (size_t k = 0; k < a.size(); k += 997) EXPECT_EQ(a[k], static_cast<uint8_t>(k * 31 + i));
    const std::vector<uint8_t>& b = out[i].result.at("b").get_binary();
    EXPECT_EQ(b, (std::vector<uint8_t>{0, 255, 7}));
    EXPECT_EQ(out[i].result.at("n"), i);
    EXPECT_EQ(out[i].result.at("tail"), Json({"a", 0, 1}));
    // Only top-level members travel raw; a nested one goes through the CBOR.
    const std::vector<uint8_t>& nb = out[i].result.at("nested").at("x").get_binary();
    EXPECT_EQ(nb, (std::vector<uint8_t>{0, 255, 7}));
  }
}

TEST(ProcessPool, OneJobFinishesInIndexOrder) {
  std::vector<size_t> order;
  run_all(
      4, 1, [](size_t i) { return Json(i); }, &order);
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(ProcessPool, TaskRunsInAChildProcess) {
  const pid_t me = ::getpid();
  const auto out = run_all(1, 1, [](size_t) { return Json(static_cast<long>(::getpid())); });
  ASSERT_TRUE(out[0].ok);
  EXPECT_NE(out[0].result.get<long>(), static_cast<long>(me));
}

TEST(ProcessPool, FailuresAreOutcomesNotCrashes) {
  const auto out = run_all(4, 2, [](size_t i) -> Json {
    if (i == 1) throw std::runtime_error("bad point");
    if (i == 2) ::raise(SIGKILL);
    if (i == 3) ::_exit(0);  // exits without sending anything
    return Json("fine");
  });
  EXPECT_TRUE(out[0].ok);
  EXPECT_EQ(out[0].result, Json("fine"));
  EXPECT_FALSE(out[1].ok);
  // An unexpected exception type is an internal error (exit 1), said so in the message.
  EXPECT_EQ(out[1].error, "internal error (please report it): bad point");
  EXPECT_EQ(out[1].code, 1);
  EXPECT_FALSE(out[2].ok);
  EXPECT_EQ(out[2].error, "worker process died with signal 9 (Killed)");
  EXPECT_EQ(out[2].code, 1);
  EXPECT_FALSE(out[3].ok);
  EXPECT_EQ(out[3].error, "worker process returned no result");
}

TEST(ProcessPool, NoTasksCallsNothing) {
  int calls = 0;
  run_in_processes(
      0, 2, [](size_t) { return Json(); }, [&](size_t, TaskOutcome) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(CallInChild, ReturnsOrRethrowsWithTheSimulationNoun) {
  EXPECT_EQ(call_in_child([] { return Json{{"x", 1}}; }), (Json{{"x", 1}}));
  try {
    call_in_child([]() -> Json { throw std::runtime_error("engine failed"); });
    FAIL() << "no exception";
  } catch (const PropagatedError& e) {
    EXPECT_STREQ(e.what(), "internal error (please report it): engine failed");
    EXPECT_EQ(e.code(), 1);
  }
  // The child's error type survives the process boundary as its exit code.
  try {
    call_in_child([]() -> Json { throw InfeasibleError("no room"); });
    FAIL() << "no exception";
  } catch (const PropagatedError& e) {
    EXPECT_STREQ(e.what(), "infeasible deployment: no room");
    EXPECT_EQ(e.code(), 3);
  }
  try {
    call_in_child([]() -> Json { throw InputError("s.json", "seed", "expected an integer"); });
    FAIL() << "no exception";
  } catch (const PropagatedError& e) {
    EXPECT_STREQ(e.what(), "s.json: field 'seed': expected an integer");
    EXPECT_EQ(e.code(), 2);
  }
  try {
    call_in_child([]() -> Json {
      ::raise(SIGKILL);
      return Json();
    });
    FAIL() << "no exception";
  } catch (const PropagatedError& e) {
    EXPECT_STREQ(e.what(), "simulation process died with signal 9 (Killed)");
    EXPECT_EQ(e.code(), 1);
  }
}

}  // namespace
}  // namespace pdsim

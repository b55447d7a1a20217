#pragma once
// Runs independent tasks in forked worker processes, at most `jobs` at a time. Each task runs in
// its own child (SimGrid allows one engine per process, and a crash stays in the child) and sends
// back its Json result; results are returned in task order whatever the finishing order, so the
// caller's output does not depend on `jobs`. The calling process must be single-threaded.
#include <functional>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct TaskOutcome {
  bool ok = false;
  Json result;        // the task's return value when ok
  std::string error;  // what() of the exception it threw, or how the child died
};

std::vector<TaskOutcome> run_forked_tasks(const std::vector<std::function<Json()>>& tasks,
                                          int jobs);

}  // namespace pdsim

#pragma once
// Runs tasks in forked child processes, at most `jobs` at a time: every simulation needs a process
// of its own (SimGrid allows one engine per process), and a crash stays in its child. Each child
// sends back its task's Json (CBOR over a pipe; binary members of a result object travel raw
// after it) and dies with its parent (PR_SET_PDEATHSIG), so a
// killed caller leaves no stray children. The calling process must be single-threaded.
//
// Users: `pdsim run`/`compare` and a sweep point's SLO rates (call_in_child, one task), the sweep's
// point workers (streaming: each point's line is written as it finishes), `pdsim sensitivity`
// (outcomes stored in task order). Each batch adds to the total of the command's open Progress
// (sim/core/progress) and each finished task counts there.
#include <cstddef>
#include <functional>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct TaskOutcome {
  bool ok = false;
  Json result;        // the task's return value when ok
  std::string error;  // what() of the exception it threw, or how the child died
  int code = 1;       // the ExitCode of that exception; 1 (internal) for a dead child
};

// Runs task(0) … task(n − 1), each in its own child, at most `jobs` at once (started in index
// order), and calls done(i, outcome) in this process as each finishes (completion order).
// `process_noun` names the children in errors: "<noun> died with signal N", "<noun> returned
// no result".
void run_in_processes(size_t n, int jobs, const std::function<Json(size_t)>& task,
                      const std::function<void(size_t, TaskOutcome)>& done,
                      const std::string& process_noun = "worker process");

}  // namespace pdsim

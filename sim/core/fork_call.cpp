#include "sim/core/fork_call.hpp"

#include "sim/core/error.hpp"

#include "sim/core/process_pool.hpp"

namespace pdsim {

Json call_in_child(const std::function<Json()>& f) {
  TaskOutcome out;
  run_in_processes(
      1, 1, [&](size_t) { return f(); }, [&](size_t, TaskOutcome o) { out = std::move(o); },
      "simulation process");
  if (!out.ok) throw PropagatedError(out.code, out.error);
  return std::move(out.result);
}

}  // namespace pdsim

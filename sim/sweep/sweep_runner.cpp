#include "sim/sweep/sweep_runner.hpp"

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/process_pool.hpp"
#include "sim/sweep/point_eval.hpp"
#include "sim/sweep/results_file.hpp"

namespace pdsim {

SweepRunStats run_sweep(const SweepSpec& spec, const SweepRunOptions& opt, std::ostream& log) {
  SweepRunStats st;
  // The lock first: a second sweep on the same file must be refused before the resume reader
  // cuts what looks like a torn last line (the first sweep's line being written).
  ResultsAppender out(opt.results_path);
  const std::map<int, Json> done = load_results_for_resume(opt.results_path, spec.hash);
  std::vector<const SweepPoint*> pending;
  for (const auto& p : spec.points) {
    if (!opt.shard.contains(p.index)) continue;
    ++st.in_shard;
    if (done.count(p.index))
      ++st.resumed;
    else
      pending.push_back(&p);
  }
  // Lines are appended in point order whatever --jobs is: a finished point waits in a reorder
  // buffer for the points before it, so the results file is byte-identical for any --jobs. A
  // killed sweep loses only the finished points still buffered; a resume reruns them.
  std::vector<std::optional<Json>> lines(pending.size());
  size_t next_out = 0;
  const auto flush = [&] {
    while (next_out < lines.size() && lines[next_out]) out.append(*lines[next_out++]);
  };
  // Feasibility first, a chunk at a time: infeasible points get their line (with the reason)
  // without simulating, and the first lines come after one chunk's checks, not after every
  // point's (about 1 ms each: a 100000-point sweep would write nothing for minutes).
  constexpr size_t kChunk = 256;
  // Its total is the points to do; the pool counts the simulated ones, this the infeasible.
  Progress bar("sweep points", opt.progress, pending.size());
  std::vector<size_t> todo;  // indices into pending
  for (size_t c0 = 0; c0 < pending.size(); c0 += kChunk) {
    todo.clear();
    for (size_t k = c0; k < std::min(pending.size(), c0 + kChunk); ++k) {
      const SweepPoint& p = *pending[k];
      const PointCheck c = check_point(spec, p);
      if (c.feasible) {
        todo.push_back(k);
        continue;
      }
      lines[k] = infeasible_line(spec, p, c);
      ++st.infeasible;
      bar.advance();
      log << "infeasible point " << p.index << " " << p.overrides.dump() << ": " << c.reason
          << "\n";
    }
    flush();
    // One worker process per point (sim/core/process_pool): it dies with the sweep, so a killed
    // sweep leaves no stray simulations; each line is appended (and fsync'ed) once in order.
    run_in_processes(
        todo.size(), opt.jobs,
        [&](size_t i) {
          const SweepPoint& p = *pending[todo[i]];
          return opt.evaluate ? opt.evaluate(spec, p) : evaluate_point(spec, p, true, opt.corpus);
        },
        [&](size_t i, TaskOutcome o) {
          const SweepPoint& p = *pending[todo[i]];
          Json line;
          if (!o.ok)
            line = error_line(spec, p, o.error);
          else if (!o.result.is_object())
            line = error_line(spec, p, "worker process returned no result");
          else
            line = std::move(o.result);
          ++st.ran;
          if (line.value("status", "") == "error") {
            ++st.errors;
            log << "error at point " << line["point"] << ": " << line.value("reason", "") << "\n";
          }
          lines[todo[i]] = std::move(line);
          flush();
        });
  }
  return st;
}

}  // namespace pdsim

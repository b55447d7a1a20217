#pragma once
// Runs the points of a sweep (or of one shard of it) in worker processes and appends each
// finished point to the results file. Points already in the file are skipped, so a killed
// sweep resumes where it stopped; infeasible points are filtered first, with their reasons.
#include <functional>
#include <iosfwd>
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/core/progress.hpp"
#include "sim/fit/calibration_corpus.hpp"
#include "sim/sweep/shard.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace pdsim {

struct SweepRunOptions {
  int jobs = 1;
  Shard shard;
  std::string results_path;
  ProgressMode progress = ProgressMode::off;  // points done on stderr (sim/core/progress)
  // Evaluates one point in a worker process (default: evaluate_point); tests inject others.
  std::function<Json(const SweepSpec&, const SweepPoint&)> evaluate;
  // Where each point stands relative to what was measured (pdsim sweep --corpus); null: not said.
  const CalibrationCorpus* corpus = nullptr;
};

struct SweepRunStats {
  int in_shard = 0;    // points of this shard
  int resumed = 0;     // already in the results file
  int infeasible = 0;  // filtered out this run
  int ran = 0;         // simulated this run
  int errors = 0;      // of those, status "error"
};

SweepRunStats run_sweep(const SweepSpec& spec, const SweepRunOptions& opt, std::ostream& log);

}  // namespace pdsim

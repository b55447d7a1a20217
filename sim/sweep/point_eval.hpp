#pragma once
// One sweep point: feasibility first (in the sweep process, cheap), then its simulation(s), each
// in a process of its own, assembled into one results line (docs/sweep.md "Results file").
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/fit/calibration_corpus.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace pdsim {

struct PointCheck {
  bool feasible = true;
  std::string reason;  // InfeasibleError text when not feasible
  int gpus = 0;        // prefill + decode GPUs over all instances
};

// Parses the point's scenario and resolves its deployment. A malformed point (wrong type, unknown
// catalog name) is an InputError naming the sweep file and the point; an infeasible layout is
// returned with its reason.
PointCheck check_point(const SweepSpec& s, const SweepPoint& p);

// The results line of a point: {"sweep","point","id","overrides","status","reason","gpus",
// "summary"[,"slo"]}. Runs one simulation, or the SLO capacity search when the sweep asks for it.
// Simulation failures give status "error" with the reason. `in_worker`: the caller is a worker
// process that exits after this point, so a point with one simulation runs it in this process
// rather than in a further forked child (SimGrid's engine runs once per process, so a capacity
// search still forks one child per rate). The line is the same either way.
// `corpus` (optional): each ok line also says where the point stands relative to what was
// measured ("envelope": envelope_brief, sim/fit/envelope.hpp).
Json evaluate_point(const SweepSpec& s, const SweepPoint& p, bool in_worker = false,
                    const CalibrationCorpus* corpus = nullptr);
// The line of a point filtered out as infeasible (no simulation).
Json infeasible_line(const SweepSpec& s, const SweepPoint& p, const PointCheck& c);
// The line of a point whose worker failed (threw, died, or sent no line): status "error".
Json error_line(const SweepSpec& s, const SweepPoint& p, const std::string& why);

}  // namespace pdsim

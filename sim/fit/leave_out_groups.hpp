#pragma once
// Which runs a leave-one-out fold leaves out together (issue 27, item 4). Leaving out one run of a
// deployment measured at eight concurrencies tests interpolation: its seven neighbours hold the
// answer. Leaving out the whole deployment (one MoE path, one model, DP attention on or off) tests
// what a user asks of a fit: a deployment it has never seen.
//   "run"         each run alone (the default);
//   "deployment"  runs with the same categorical coordinates (deployment_coordinates.hpp: model,
//                 platform, serving stack, fabric, each role's layout and MoE path, NICs, KV
//                 transport, speculative decoding), as the calibration corpus groups them,
//                 labelled by those that differ between the set's runs;
//   a coordinate  runs with the same value of that one coordinate (e.g. decode.moe_path, or
//                 concurrency: one client concurrency at a time).
// Groups are listed in the order of their first run, so folds and overlays are deterministic.
#include <string>
#include <vector>

#include "sim/fit/validation_set.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

struct LeaveOutGroup {
  std::string label;         // the run's name, the deployment's values, or "KEY = VALUE"
  std::vector<size_t> runs;  // indices into the set, ascending
};

// `deps[i]` is run i's deployment. InputError (field --leave-out-by) for an unknown `by`, naming
// the accepted ones, and when the runs form fewer than two groups (nothing left to fit).
std::vector<LeaveOutGroup> leave_out_groups(const ValidationSet& set,
                                            const std::vector<Deployment>& deps,
                                            const std::string& by);

}  // namespace pdsim

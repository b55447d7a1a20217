#pragma once
// The options `run` and `compare` share for fitted profiles and intervals: --profile-overlay FILE
// (repeatable), --param-samples N (prediction intervals from the fit's covariance), --seeds N
// (intervals over seeds of the extreme ITL statistics), and --jobs N and --progress for those.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "sim/cli/jobs_option.hpp"
#include "sim/cli/progress_option.hpp"

namespace pdsim::cli {

struct OverlayOptions {
  std::vector<std::string> overlays;
  int param_samples = 0;
  int seeds = 0;
  int jobs = 1;
  std::string progress;
};

inline void add_overlay_options(CLI::App& app, OverlayOptions& o) {
  app.add_option("--profile-overlay", o.overlays,
                 "apply a profile overlay after the scenario's own (repeatable; each section only "
                 "to the profile it was fitted on)");
  app.add_option("--param-samples", o.param_samples,
                 "also draw N parameter vectors from the fitted overlays' covariance and the "
                 "priors of held all-to-all parameters, and report each metric's 5-95 % "
                 "interval (uncertainty.json; compare: also the B/A ratio over paired draws); "
                 "at most 10000")
      ->check(CLI::Range(0, 10000));
  app.add_option("--seeds", o.seeds,
                 "also run N seeds (the run's seed and the next N-1) and report p99 / max ITL and "
                 "other metrics with their 5-95 % range over seeds, and the mechanism behind "
                 "each seed's worst gap (seeds.json); at most 10000 (each is a full run)")
      ->check(CLI::Range(0, 10000));
  add_jobs_option(app, o.jobs, "simulations of --param-samples and --seeds");
  add_progress_option(app, o.progress);
}

}  // namespace pdsim::cli

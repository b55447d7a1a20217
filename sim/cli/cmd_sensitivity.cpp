// pdsim sensitivity SCENARIO [--set ...] [--seed N] [--step 0.2] [--jobs N] [--param NAME]...
//                             [--no-gpu] [--list] [-o FILE]
// Ranks the fabric (and GPU) profile parameters by their elasticity on mean TPOT and p99 ITL;
// method in sim/sweep/sensitivity.hpp.
#include <iostream>
#include <memory>
#include <optional>

#include "sim/cli/command.hpp"
#include "sim/cli/jobs_option.hpp"
#include "sim/cli/progress_option.hpp"
#include "sim/cli/seed_option.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/progress.hpp"
#include "sim/sweep/sensitivity.hpp"

namespace {
struct SensitivityArgs {
  pdsim::SensitivityOptions opt;
  std::string out;
  bool no_gpu = false, list = false;
  std::string progress;
};
}  // namespace

PDSIM_CLI_COMMAND(
    sensitivity, "sensitivity",
    "rank profile parameters by how much they move mean TPOT and p99 ITL (what to measure first)",
    [](CLI::App& app) -> std::function<int()> {
      auto a = std::make_shared<SensitivityArgs>();
      app.add_option("scenario", a->opt.scenario, "scenario JSON file")->required();
      app.add_option("--set", a->opt.sets, "override a scenario field: dotted.path=value");
      app.add_option("--seed", a->opt.seed, "random seed (default: the scenario's)")
          ->check(pdsim::cli::kNonNegativeSeed);
      app.add_option("--step", a->opt.step, "relative step of each parameter (default 0.2 = ±20%)");
      pdsim::cli::add_jobs_option(app, a->opt.jobs, "simulations");
      pdsim::cli::add_progress_option(app, a->progress);
      app.add_option("--param", a->opt.params,
                     "only this parameter (repeatable), e.g. fabric:a2a.cpu-proxy.latency_us");
      app.add_flag("--no-gpu", a->no_gpu, "leave the GPU profile's parameters out");
      app.add_flag("--list", a->list, "print the parameter names and values, run nothing");
      app.add_option("-o,--output", a->out, "write the ranked table as JSON");
      return [a]() -> int {
        a->opt.include_gpu = !a->no_gpu;
        if (a->list) {
          for (const auto& p : pdsim::scenario_sensitivity_parameters(a->opt))
            std::cout << p.name << "  " << (p.curve ? "(curve, scaled)" : std::to_string(p.base))
                      << "\n";
          return 0;
        }
        std::optional<pdsim::Progress> bar(std::in_place, "simulations",
                                           pdsim::progress_mode(a->progress));
        const pdsim::SensitivityResult r = pdsim::run_sensitivity(a->opt);
        bar.reset();
        std::cout << pdsim::sensitivity_text(r);
        if (!a->out.empty()) {
          pdsim::write_file_atomic(a->out, pdsim::sensitivity_json(r).dump(2) + "\n");
          std::cout << "wrote " << a->out << "\n";
        }
        return 0;
      };
    })

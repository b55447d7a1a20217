// pdsim run SCENARIO [--out DIR] [--seed N] [--set path=value]... [--report FILE.html|.md|.csv]...
// [--profile-overlay FILE]... [--param-samples N] [--seeds N] [--jobs N]
#include <iostream>
#include <memory>
#include <optional>

#include "reports/elastic_report.hpp"
#include "reports/envelope_report.hpp"
#include "reports/html_report.hpp"
#include "reports/interval_report.hpp"
#include "reports/run_outputs.hpp"
#include "reports/seed_interval_report.hpp"
#include "reports/tail_attribution.hpp"
#include "reports/text_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/corpus_option.hpp"
#include "sim/cli/input_warnings.hpp"
#include "sim/cli/overlay_options.hpp"
#include "sim/cli/seed_option.hpp"
#include "sim/cli/workload_options.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/output_dir.hpp"
#include "sim/core/progress.hpp"
#include "sim/fit/parameter_samples.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/sweep/seed_intervals.hpp"

namespace {
struct RunOptions {
  std::string scenario, out;
  std::optional<uint64_t> seed;
  std::vector<std::string> sets, reports;
  std::vector<std::string> workload;  // bench_serving flags, as --set after `sets`
  std::string corpus = "sglang-pd";
  pdsim::cli::OverlayOptions fitted;
};
}  // namespace

PDSIM_CLI_COMMAND(
    run, "run", "simulate one scenario and print a bench_serving-style summary",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<RunOptions>();
      app.add_option("scenario", o->scenario, "scenario JSON file")->required();
      app.add_option("--out", o->out, "output directory (default out/<scenario name>)");
      app.add_option("--seed", o->seed, "random seed (default: the scenario's)")
          ->check(pdsim::cli::kNonNegativeSeed);
      app.add_option("--set", o->sets, "override a scenario field: dotted.path=value");
      pdsim::cli::add_workload_flags(app, o->workload);
      app.add_option("--report", o->reports,
                     "also write a report: FILE.html (charts), .md or .csv");
      pdsim::cli::add_overlay_options(app, o->fitted);
      pdsim::cli::add_corpus_option(app, o->corpus);
      return [o] {
        for (const auto& f : o->reports) pdsim::check_report_path(f);
        o->sets.insert(o->sets.end(), o->workload.begin(), o->workload.end());
        const pdsim::Scenario s =
            pdsim::load_run_scenario(o->scenario, o->sets, o->seed, o->fitted.overlays);
        pdsim::Deployment d = pdsim::build_deployment(s);
        pdsim::cli::print_input_warnings(d.profiles);
        const auto corpus = pdsim::cli::load_corpus_option(o->corpus);
        std::optional<pdsim::Progress> bar;  // closed before the results are printed
        bar.emplace("simulations", pdsim::progress_mode(o->fitted.progress));
        pdsim::SimResults r = pdsim::simulate_isolated(d, s.seed);
        const std::string dir = o->out.empty() ? "out/" + r.scenario_name : o->out;
        pdsim::OutputDir out(dir);  // written as a unit: the old run or this one, never a mix
        pdsim::Json summary =
            pdsim::write_run_outputs(r, out.staging(), pdsim::cli::envelope_amendment(corpus, d));
        pdsim::write_file_atomic(out.staging() + "/tail_attribution.json",
                                 pdsim::tail_attribution_json(summary).dump(2) + "\n");
        pdsim::Json iv;
        if (o->fitted.param_samples > 0) {
          iv = pdsim::prediction_intervals(s, s.seed, o->fitted.param_samples, o->fitted.jobs);
          pdsim::write_file_atomic(out.staging() + "/uncertainty.json", iv.dump(2) + "\n");
        }
        std::vector<pdsim::Json> seeds;
        if (o->fitted.seeds > 0) {
          seeds = pdsim::seed_intervals({s}, s.seed, o->fitted.seeds, o->fitted.jobs, {summary});
          pdsim::write_file_atomic(out.staging() + "/seeds.json", seeds.front().dump(2) + "\n");
        }
        out.commit();
        bar.reset();
        for (const auto& f : o->reports)
          pdsim::write_run_report(
              f, {r.scenario_name, &r, summary, seeds.empty() ? pdsim::Json() : seeds.front(), iv});
        std::cout << pdsim::bench_text_block(summary) << pdsim::pdsim_breakdown_text(summary)
                  << pdsim::tail_attribution_text(summary) << pdsim::elastic_text(summary)
                  << pdsim::envelope_text(summary["pdsim"].value("envelope", pdsim::Json()));
        if (o->fitted.param_samples > 0)
          std::cout << pdsim::prediction_interval_text(summary, iv, r.scenario_name);
        std::cout << pdsim::seed_interval_text(seeds);
        std::cout << "Results written to " << dir << "/\n";
        return 0;
      };
    })

// pdsim run SCENARIO [--out DIR] [--seed N] [--set path=value]... [--report FILE.html|.md|.csv]...
#include <iostream>
#include <memory>

#include "reports/html_report.hpp"
#include "reports/run_outputs.hpp"
#include "reports/tail_attribution.hpp"
#include "reports/text_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/serve/run_scenario.hpp"

namespace {
struct RunOptions {
  std::string scenario, out;
  std::optional<uint64_t> seed;
  std::vector<std::string> sets, reports;
};
}  // namespace

PDSIM_CLI_COMMAND(
    run, "run", "simulate one scenario and print a bench_serving-style summary",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<RunOptions>();
      app.add_option("scenario", o->scenario, "scenario JSON file")->required();
      app.add_option("--out", o->out, "output directory (default out/<scenario name>)");
      app.add_option("--seed", o->seed, "random seed (default: the scenario's)");
      app.add_option("--set", o->sets, "override a scenario field: dotted.path=value");
      app.add_option("--report", o->reports,
                     "also write a report: FILE.html (charts), .md or .csv");
      return [o] {
        for (const auto& f : o->reports) pdsim::check_report_path(f);
        pdsim::SimResults r = pdsim::run_scenario_file(o->scenario, o->sets, o->seed);
        const std::string dir = o->out.empty() ? "out/" + r.scenario_name : o->out;
        pdsim::Json summary = pdsim::write_run_outputs(r, dir);
        pdsim::write_file_atomic(dir + "/tail_attribution.json",
                                 pdsim::tail_attribution_json(summary).dump(2) + "\n");
        for (const auto& f : o->reports) pdsim::write_run_report(f, r, summary);
        std::cout << pdsim::bench_text_block(summary) << pdsim::pdsim_breakdown_text(summary)
                  << pdsim::tail_attribution_text(summary) << "Results written to " << dir << "/\n";
        return 0;
      };
    })

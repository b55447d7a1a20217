// pdsim compare A B [--out DIR] [--seed N] [--set path=value]... [--report FILE.html|.md|.csv]...:
// two scenarios side by side.
#include <iostream>
#include <memory>

#include "reports/compare.hpp"
#include "reports/html_report.hpp"
#include "reports/run_outputs.hpp"
#include "reports/tail_attribution.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/serve/run_scenario.hpp"

namespace {
struct CompareOptions {
  std::string a, b, out = "out/compare";
  std::optional<uint64_t> seed;
  std::vector<std::string> sets, reports;
};
}  // namespace

PDSIM_CLI_COMMAND(
    compare, "compare", "simulate two scenarios (e.g. EFA vs RoCE) and explain their difference",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<CompareOptions>();
      app.add_option("a", o->a, "first scenario (baseline)")->required();
      app.add_option("b", o->b, "second scenario")->required();
      app.add_option("--out", o->out, "output directory (default out/compare)");
      app.add_option("--seed", o->seed, "random seed for both (default: each scenario's)");
      app.add_option("--set", o->sets, "override a field in both scenarios: dotted.path=value");
      app.add_option("--report", o->reports,
                     "also write a report: FILE.html (charts), .md or .csv");
      return [o] {
        using namespace pdsim;
        for (const auto& f : o->reports) check_report_path(f);
        // Both scenarios are validated before either is simulated.
        Scenario sa = load_scenario(o->a, o->sets), sb = load_scenario(o->b, o->sets);
        if (o->seed) sa.seed = sb.seed = *o->seed;
        Deployment da = build_deployment(sa), db = build_deployment(sb);
        SimResults ra = simulate_isolated(da, sa.seed);
        SimResults rb = simulate_isolated(db, sb.seed);
        const RunNames names{ra.scenario_name, rb.scenario_name};
        Json suma = write_run_outputs(ra, o->out + "/" + names[0]);
        Json sumb = write_run_outputs(rb, o->out + "/" + names[1]);
        write_file_atomic(o->out + "/compare.json", compare_json(suma, sumb, names).dump(2) + "\n");
        write_file_atomic(o->out + "/tail_compare.json",
                          tail_compare_json(suma, sumb, names).dump(2) + "\n");
        for (const auto& f : o->reports)
          write_compare_report(f, {names[0], &ra, suma}, {names[1], &rb, sumb});
        std::cout << compare_text(suma, sumb, names) << tail_compare_text(suma, sumb, names)
                  << "Results written to " << o->out << "/\n";
        return 0;
      };
    })

// pdsim compare A B [--out DIR] [--seed N] [--set path=value]... [--set-b path=value]...
// [--report FILE.html|.md|.csv]...
// [--profile-overlay FILE]... [--param-samples N] [--seeds N] [--jobs N]: two scenarios side by
// side.
#include <iostream>
#include <memory>
#include <optional>

#include "reports/compare.hpp"
#include "reports/connection_report.hpp"
#include "reports/elastic_report.hpp"
#include "reports/envelope_report.hpp"
#include "reports/html_report.hpp"
#include "reports/interval_report.hpp"
#include "reports/run_outputs.hpp"
#include "reports/seed_interval_report.hpp"
#include "reports/tail_attribution.hpp"
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
struct CompareOptions {
  std::string a, b, out = "out/compare";
  std::optional<uint64_t> seed;
  std::vector<std::string> sets, sets_b, reports;
  std::vector<std::string> workload;  // bench_serving flags, as --set after `sets`
  pdsim::cli::OverlayOptions fitted;
  std::string corpus = "sglang-pd";
};
}  // namespace

PDSIM_CLI_COMMAND(
    compare, "compare", "simulate two scenarios (e.g. EFA vs RoCE) and explain their difference",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<CompareOptions>();
      app.add_option("a", o->a, "first scenario (baseline)")->required();
      app.add_option("b", o->b, "second scenario")->required();
      app.add_option("--out", o->out, "output directory (default out/compare)");
      app.add_option("--seed", o->seed, "random seed for both (default: each scenario's)")
          ->check(pdsim::cli::kNonNegativeSeed);
      app.add_option("--set", o->sets, "override a field in both scenarios: dotted.path=value");
      app.add_option("--set-b", o->sets_b,
                     "override a field in the second scenario only, after --set: dotted.path=value "
                     "(B = A on another fabric: compare A A --set-b fabric.profile=...)");
      pdsim::cli::add_workload_flags(app, o->workload);
      app.add_option("--report", o->reports,
                     "also write a report: FILE.html (charts), .md or .csv");
      pdsim::cli::add_overlay_options(app, o->fitted);
      pdsim::cli::add_corpus_option(app, o->corpus);
      return [o] {
        using namespace pdsim;
        for (const auto& f : o->reports) check_report_path(f);
        o->sets.insert(o->sets.end(), o->workload.begin(), o->workload.end());
        std::vector<std::string> sets_b = o->sets;
        sets_b.insert(sets_b.end(), o->sets_b.begin(), o->sets_b.end());
        // Both scenarios are validated before either is simulated.
        Scenario sa = load_run_scenario(o->a, o->sets, o->seed, o->fitted.overlays),
                 sb = load_run_scenario(o->b, sets_b, o->seed, o->fitted.overlays);
        Deployment da = build_deployment(sa), db = build_deployment(sb);
        cli::print_input_warnings(da.profiles, o->a);
        cli::print_input_warnings(db.profiles, o->b);
        const auto corpus = cli::load_corpus_option(o->corpus);
        std::optional<Progress> bar;  // closed before the results are printed
        bar.emplace("simulations", progress_mode(o->fitted.progress));
        std::vector<SimResults> both =
            simulate_isolated({&da, &db}, {sa.seed, sb.seed}, o->fitted.jobs);
        SimResults &ra = both[0], &rb = both[1];
        RunNames names{ra.scenario_name, rb.scenario_name};
        if (names[0] == names[1]) {  // A against itself with --set-b: two folders, two columns
          names[0] += "-a";
          names[1] += "-b";
        }
        OutputDir out(o->out);  // written as a unit: the old comparison or this one
        const std::string dir = out.staging();
        Json suma =
            write_run_outputs(ra, dir + "/" + names[0], cli::envelope_amendment(corpus, da));
        Json sumb =
            write_run_outputs(rb, dir + "/" + names[1], cli::envelope_amendment(corpus, db));
        write_file_atomic(dir + "/compare.json", compare_json(suma, sumb, names).dump(2) + "\n");
        const auto conn_a = connection_table(da), conn_b = connection_table(db);
        write_file_atomic(
            dir + "/connections.json",
            Json{{names[0], connection_json(conn_a)}, {names[1], connection_json(conn_b)}}.dump(2) +
                "\n");
        write_file_atomic(dir + "/tail_compare.json",
                          tail_compare_json(suma, sumb, names).dump(2) + "\n");
        Json ia, ib;
        if (o->fitted.param_samples > 0) {
          ia = prediction_intervals(sa, sa.seed, o->fitted.param_samples, o->fitted.jobs);
          ib = prediction_intervals(sb, sb.seed, o->fitted.param_samples, o->fitted.jobs);
          write_file_atomic(dir + "/uncertainty.json",
                            Json{{names[0], ia},
                                 {names[1], ib},
                                 {"ratio_b_over_a", paired_ratio_intervals(ia, ib)}}
                                    .dump(2) +
                                "\n");
        }
        std::vector<Json> seeds;
        if (o->fitted.seeds > 0) {
          // Each scenario from its own seed (equal under --seed), all in one pool.
          if (sa.seed == sb.seed) {
            seeds =
                seed_intervals({sa, sb}, sa.seed, o->fitted.seeds, o->fitted.jobs, {suma, sumb});
          } else {
            seeds = seed_intervals({sa}, sa.seed, o->fitted.seeds, o->fitted.jobs, {suma});
            seeds.push_back(
                seed_intervals({sb}, sb.seed, o->fitted.seeds, o->fitted.jobs, {sumb}).front());
          }
          write_file_atomic(dir + "/seeds.json",
                            Json{{names[0], seeds[0]}, {names[1], seeds[1]}}.dump(2) + "\n");
        }
        out.commit();
        bar.reset();
        for (const auto& f : o->reports)
          write_compare_report(f, {names[0], &ra, suma, seeds.empty() ? Json() : seeds[0], ia},
                               {names[1], &rb, sumb, seeds.empty() ? Json() : seeds[1], ib});
        std::cout << compare_text(suma, sumb, names) << tail_compare_text(suma, sumb, names);
        if (o->fitted.param_samples > 0)
          std::cout << prediction_interval_text(suma, ia, names[0])
                    << prediction_interval_text(sumb, ib, names[1])
                    << paired_ratio_text(paired_ratio_intervals(ia, ib), names[0], names[1]);
        std::cout << seed_interval_text(seeds);
        for (size_t i = 0; i < 2; ++i) {
          const std::string el = elastic_text(i == 0 ? suma : sumb);
          if (!el.empty()) std::cout << names[i] << ": " << el;
        }
        std::cout << "Connection state per host (pdsim connections SCENARIO: the full table; "
                     "connections.json)\n"
                  << connection_brief(conn_a, names[0]) << connection_brief(conn_b, names[1]);
        for (size_t i = 0; i < 2; ++i) {
          const Json& sm = i == 0 ? suma : sumb;
          if (sm["pdsim"].contains("envelope"))
            std::cout << names[i] << ": " << envelope_text(sm["pdsim"]["envelope"]);
        }
        std::cout << "Results written to " << o->out << "/\n";
        return 0;
      };
    })

// pdsim calibrate serving SET --fit PATH=LO:HI ... -o OVERLAY [--metric M]... [--seed N]
// [--jobs N] [--max-evaluations N] [--starts N] [--no-loo] [--report FILE]...: fit mechanism
// parameters to a validation set's measured runs (sim/fit/serving_fit.hpp) and write the overlay. A
// fit that does not converge says so, writes nothing and exits 3.
#include <filesystem>
#include <iostream>
#include <memory>

#include "reports/html_report.hpp"
#include "reports/html_validation_report.hpp"
#include "reports/validation_report.hpp"
#include "sim/cli/calibrate_serving.hpp"
#include "sim/cli/jobs_option.hpp"
#include "sim/cli/seed_option.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/output_target.hpp"
#include "sim/fit/serving_fit.hpp"

namespace pdsim::cli {
namespace {
struct ServingArgs {
  std::string set, out;
  std::vector<std::string> reports;
  ServingFitOptions opt;
  bool no_loo = false;
};
}  // namespace

std::function<int()> setup_calibrate_serving(CLI::App* sub) {
  auto a = std::make_shared<ServingArgs>();
  sub->add_option("set", a->set, "validation set JSON (pdsim.validation_set/1)")->required();
  sub->add_option("--fit", a->opt.fit,
                  "a parameter to fit: <kind>.<field>=LO:HI, kind fabric|gpu|serving|acceptance "
                  "(repeatable)")
      ->required();
  sub->add_option("-o,--output", a->out, "overlay to write (pdsim.profile_overlay/1)")->required();
  sub->add_option("--metric", a->opt.metrics,
                  "bench_serving metric to compare (repeatable; default duration, "
                  "mean_e2e_latency_ms, median_itl_ms, p99_itl_ms)");
  sub->add_option("--seed", a->opt.seed, "simulation seed (default: each run's scenario seed)")
      ->check(pdsim::cli::kNonNegativeSeed);
  pdsim::cli::add_jobs_option(*sub, a->opt.jobs, "simulations");
  sub->add_option("--max-evaluations", a->opt.max_evaluations, "optimiser budget")
      ->check(CLI::PositiveNumber);
  sub->add_option("--starts", a->opt.starts,
                  "start points of the optimiser: the profiles' values, then Halton points in the "
                  "ranges; the lowest minimum is kept (default 1)")
      ->check(CLI::Range(1, 64));
  sub->add_flag("--no-loo", a->no_loo, "skip the leave-one-out evaluation");
  sub->add_option("--report", a->reports,
                  "also write the fit as a report: FILE.html (charts), .md or .csv (repeatable; "
                  "written whether or not the fit converged)");
  return [a] {
    for (const auto& f : a->reports) check_report_path(f);
    a->opt.leave_one_out = !a->no_loo;
    a->opt.name = std::filesystem::path(a->out).stem().string();
    a->opt.command = "pdsim calibrate serving " + a->set;
    for (const auto& f : a->opt.fit) a->opt.command += " --fit " + f;
    for (const auto& m : a->opt.metrics) a->opt.command += " --metric " + m;
    if (a->opt.starts > 1) a->opt.command += " --starts " + std::to_string(a->opt.starts);
    a->opt.progress = [](const std::string& s) { std::cerr << s << "\n"; };
    const ValidationSet set = load_validation_set(a->set);
    // Before the fit (minutes): -o must not overwrite an input and must be writable.
    std::vector<std::string> inputs{a->set};
    for (const auto& run : set.runs) inputs.insert(inputs.end(), {run.scenario, run.measured_file});
    check_output_file("-o", a->out, inputs);
    for (const auto& f : a->reports) check_output_file("--report", f, inputs);
    const ServingFitResult r = fit_serving(set, a->opt);
    std::cout << serving_fit_text(set, r);
    for (const auto& f : a->reports) {
      write_report_doc(serving_fit_report_doc(set, r), f);
      std::cout << "Report written to " << f << "\n";
    }
    if (!r.converged) return 3;
    write_file_atomic(a->out, r.overlay.doc.dump(2) + "\n");
    std::cout << "wrote " << a->out << "\n";
    return 0;
  };
}

}  // namespace pdsim::cli

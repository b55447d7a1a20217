// pdsim calibrate serving SET [SET...] [--fit PATH=LO:HI]... -o OVERLAY [--metric M]... [--seed N]
// [--jobs N] [--max-evaluations N] [--starts N] [--no-loo] [--loss l2|huber|cauchy
// [--loss-scale C]] [--report FILE]...: fit mechanism parameters to a validation set's measured
// runs (sim/fit/serving_fit.hpp) and write the overlay; without --fit, the set's "fit" list.
// Several sets: one joint fit over all their runs (--fit required). A
// fit that does not converge says so, writes no overlay and exits 3 (a --report is written).
// pdsim calibrate serving --init SET --scenario S RECORD[:LINE]... [--run-set RUN:path=value]...
// [--fit PATH=LO:HI]... [--force]: write the validation set (sim/fit/validation_set_init.hpp).
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
#include "sim/core/error.hpp"
#include "sim/core/output_target.hpp"
#include "sim/fit/joint_validation_set.hpp"
#include "sim/fit/serving_fit.hpp"
#include "sim/fit/validation_set_init.hpp"

namespace pdsim::cli {
namespace {
struct ServingArgs {
  std::vector<std::string> inputs;  // the set; with --init, the records
  std::string out;
  std::vector<std::string> reports;
  ServingFitOptions opt;
  bool no_loo = false, force = false;
  std::string loss = "l2";
  double loss_scale = 0.1;
  SetInit init;
};

int write_set(ServingArgs& a) {
  if (!a.out.empty()) throw InputError("-o", a.out, "no -o with --init (--init writes SET)");
  if (!a.reports.empty())
    throw InputError("--report", a.reports.front(), "no --report with --init (nothing is fitted)");
  if (a.init.scenario.empty()) throw InputError("--init", a.init.file, "--scenario SCENARIO");
  if (!a.force && std::filesystem::exists(a.init.file))
    throw InputError("--init", a.init.file, "a file that does not exist yet (or --force)");
  a.init.records = a.inputs;
  a.init.fit = a.opt.fit;
  const Json doc = init_validation_set(a.init);
  write_file_atomic(a.init.file, doc.dump(2) + "\n");
  auto count = [](size_t n, const std::string& what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::cout << "wrote " << a.init.file << ": " << count(doc.at("runs").size(), "run")
            << ", fit list of " << count(doc.at("fit").size(), "parameter") << "\n";
  return 0;
}
}  // namespace

std::function<int()> setup_calibrate_serving(CLI::App* sub) {
  auto a = std::make_shared<ServingArgs>();
  sub->add_option("set", a->inputs,
                  "validation set JSON (pdsim.validation_set/1; several: one joint fit over all "
                  "their runs); with --init, the bench_serving records FILE[:LINE]")
      ->required();
  sub->add_option(
      "--fit", a->opt.fit,
      "a parameter to fit: <kind>.<field>=LO:HI, kind fabric|gpu|serving|acceptance|collective "
      "(repeatable; replaces the set's \"fit\" list)");
  sub->add_option("-o,--output", a->out, "overlay to write (pdsim.profile_overlay/1)");
  sub->add_option("--init", a->init.file,
                  "write this validation set from the records and --scenario instead of fitting");
  sub->add_option("--scenario", a->init.scenario, "with --init: the scenario the runs used");
  sub->add_option("--run-set", a->init.run_sets,
                  "with --init: RUN:dotted.path=value, an override of one run (repeatable)");
  sub->add_flag("--force", a->force, "with --init: overwrite an existing SET");
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
  sub->add_option("--leave-out-by", a->opt.leave_out_by,
                  "what leave-one-out leaves out together: run (default), deployment (runs with "
                  "the same model, platform, stack, fabric, layouts, MoE paths, NICs, KV transport "
                  "and speculative decoding), or one coordinate such as decode.moe_path or "
                  "concurrency (sim/fit/leave_out_groups.hpp)");
  sub->add_option("--report", a->reports,
                  "also write the fit as a report: FILE.html (charts), .md or .csv (repeatable; "
                  "written whether or not the fit converged)");
  sub->add_option("--loss", a->loss,
                  "what the optimiser minimises over the log ratios: l2 (Σ r², default), huber or "
                  "cauchy (an outlier such as a tail sample weighs little; sim/fit/fit_loss.hpp)");
  sub->add_option("--loss-scale", a->loss_scale,
                  "the robust loss's scale in log-ratio units, about a relative error (default "
                  "0.1: residuals beyond about 10 % count less)");
  return [a] {
    if (!a->init.file.empty()) return write_set(*a);
    for (const auto& f : a->reports) check_report_path(f);

    if (!a->init.scenario.empty() || !a->init.run_sets.empty() || a->force)
      throw InputError("--init", "", "--scenario, --run-set and --force go with --init SET");
    if (a->out.empty()) throw InputError("-o", "", "the overlay to write: -o OVERLAY.json");
    std::string set_arg;
    for (const auto& f : a->inputs) set_arg += (set_arg.empty() ? "" : " ") + f;
    a->opt.leave_one_out = !a->no_loo;
    a->opt.loss = FitLoss::parse(a->loss, a->loss_scale);
    a->opt.name = std::filesystem::path(a->out).stem().string();
    a->opt.progress = [](const std::string& s) { std::cerr << s << "\n"; };
    // Several sets: one joint fit over all their runs (sim/fit/joint_validation_set.hpp).
    std::vector<ValidationSet> sets;
    for (const auto& f : a->inputs) {
      if (a->inputs.size() > 1 && !is_validation_set(f))
        throw InputError("calibrate serving", f,
                         "a validation set (pdsim.validation_set/1) for a joint fit; bench_serving "
                         "records go with --init SET");
      sets.push_back(load_validation_set(f));
    }
    const ValidationSet set = sets.size() == 1 ? sets.front() : joint_validation_set(sets);
    if (sets.size() > 1 && a->opt.fit.empty())
      throw InputError("--fit", "", "the parameters of a joint fit over several sets");
    if (a->opt.fit.empty()) a->opt.fit = set.fit;
    if (a->opt.fit.empty())
      throw InputError(set.file, "fit",
                       "parameters to fit: --fit KIND.FIELD=LO:HI, or a \"fit\" list in the set");
    a->opt.command = "pdsim calibrate serving " + set_arg;
    for (const auto& f : a->opt.fit) a->opt.command += " --fit " + f;
    for (const auto& m : a->opt.metrics) a->opt.command += " --metric " + m;
    if (a->opt.starts > 1) a->opt.command += " --starts " + std::to_string(a->opt.starts);
    if (a->no_loo && a->opt.leave_out_by != "run")
      throw InputError("--leave-out-by", a->opt.leave_out_by, "no --leave-out-by with --no-loo");
    if (a->opt.leave_out_by != "run") a->opt.command += " --leave-out-by " + a->opt.leave_out_by;
    if (a->opt.loss.kind != LossKind::l2)
      a->opt.command += " --loss " + a->loss + " --loss-scale " + a->opt.loss.scale_text();
    // Before the fit (minutes): -o must not overwrite an input and must be writable.
    std::vector<std::string> inputs;
    for (const auto& x : sets) inputs.push_back(x.file);
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

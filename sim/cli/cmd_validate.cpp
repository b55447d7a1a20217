// pdsim validate INPUT [--measured FILE.jsonl[:LINE]] [--line K] [--scenario-workload] [--seed N]
// [--set path=value]... [--profile-overlay FILE]... [--jobs N] [--progress MODE] [--out DIR]
// [--report FILE.html|.md|.csv]...
// INPUT is a scenario (run with the workload of the measured bench_serving record given by
// --measured, unless --scenario-workload, and compared with it) or a
// validation set (pdsim.validation_set/1: its runs, each simulated and compared with its own
// measured record, in one table). Measured records are read first, so a bad file fails before
// anything is simulated; metrics a record's known artefacts invalidate are not compared.
#include <iostream>
#include <memory>
#include <optional>

#include "calibrate/bench_serving_jsonl.hpp"
#include "reports/html_report.hpp"
#include "reports/html_validation_report.hpp"
#include "reports/run_outputs.hpp"
#include "reports/validate.hpp"
#include "reports/validation_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/input_warnings.hpp"
#include "sim/cli/jobs_option.hpp"
#include "sim/cli/progress_option.hpp"
#include "sim/cli/seed_option.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_dir.hpp"
#include "sim/core/progress.hpp"
#include "sim/fit/fold_spread.hpp"
#include "sim/fit/set_predictor.hpp"
#include "sim/scenario/record_workload.hpp"
#include "sim/serve/actors/run_scenario.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace {
struct ValidateOptions {
  std::string input, measured, out;
  std::optional<int> line;
  std::optional<uint64_t> seed;
  std::vector<std::string> sets, overlays, reports;
  int jobs = 1;
  std::string progress;
  bool scenario_workload = false;
};

int validate_set(const ValidateOptions& o) {
  using namespace pdsim;
  if (!o.measured.empty() || o.line || !o.sets.empty())
    throw InputError(o.input, "",
                     "a validation set carries its own measured files and overrides "
                     "(--measured, --line and --set are for a scenario)");
  const ValidationSet set = load_validation_set(o.input);
  std::vector<ProfileOverlay> overlays;
  for (const auto& f : o.overlays) overlays.push_back(load_profile_overlay(f));
  const SetPredictor pred(set, o.seed, o.jobs);
  std::optional<Progress> bar(std::in_place, "validation runs", progress_mode(o.progress));
  const std::vector<Json> predicted = pred.predict(pred.all_runs(), overlays, /*full=*/true);
  bar.reset();
  Json v = validate_set_json(set, predicted);
  // An overlay's out-of-sample figure: the spread of its fit's left-out errors, which `pdsim run`
  // gives a recombination of the deployments its folds predicted (sim/fit/fold_spread.hpp).
  std::string spread_text;
  for (const auto& ov : overlays) {
    const FoldSpread fs = fold_spread(ov.doc.value("fit", Json::object()));
    const std::string t = fold_spread_text(fs);
    if (t.empty()) continue;
    const std::string name = ov.doc.value("name", ov.file);
    Json j = {{"overlay", name}};
    j.update(fold_spread_json(fs));
    v["overlay_fold_spreads"].push_back(j);
    spread_text += "Overlay " + name + ", its fit's left-out errors (leave-one-out by " +
                   fs.leave_out_by + "):\n" + t;
  }
  if (!o.out.empty()) {
    OutputDir out(o.out);  // written as a unit
    for (size_t i = 0; i < set.runs.size(); ++i)
      write_file_atomic(out.staging() + "/" + set.runs[i].name + ".summary.json",
                        predicted[i].dump(2) + "\n");
    write_file_atomic(out.staging() + "/validation.json", v.dump(2) + "\n");
    out.commit();
  }
  for (const auto& f : o.reports) write_report_doc(validation_report_doc(v, set.name), f);
  std::cout << validate_set_text(set, v) << spread_text;
  return 0;
}

int validate_scenario(const ValidateOptions& o) {
  using namespace pdsim;
  if (o.measured.empty())
    throw InputError(o.input, "",
                     "--measured FILE.jsonl with a scenario (or give a validation set)");
  const RecordRef ref = split_record_ref(o.measured);
  if (ref.line && o.line)
    throw InputError("--line", "", "no --line with --measured FILE:LINE (it names the line)");
  const BenchServingRecord measured =
      read_bench_serving_jsonl(ref.path, o.line ? o.line : ref.line);
  const std::string label = measured.file + " line " + std::to_string(measured.line);
  // The record's workload first, the user's --set after it (they win), unless asked otherwise.
  std::vector<std::string> sets;
  if (!o.scenario_workload)
    sets = workload_from_record(JsonNode::from_json(measured.record, label));
  const std::vector<std::string> from_record = sets;
  sets.insert(sets.end(), o.sets.begin(), o.sets.end());
  const SimResults r = run_scenario_file(o.input, sets, o.seed, o.overlays);
  cli::print_input_warnings(r.profiles);
  std::optional<OutputDir> out;  // written as a unit
  if (!o.out.empty()) out.emplace(o.out);
  const Json predicted = out ? write_run_outputs(r, out->staging()) : bench_summary(r);
  const Json v = validate_against(predicted, measured.record);
  if (out) {
    Json doc = v;
    doc["measured_file"] = measured.file;
    doc["measured_line"] = measured.line;
    doc["scenario"] = r.scenario_name;
    doc["workload_from_record"] = from_record;
    write_file_atomic(out->staging() + "/validation.json", doc.dump(2) + "\n");
    out->commit();
  }
  if (!from_record.empty()) {
    std::cout << "Workload from " << label << ":";
    for (const auto& a : from_record) std::cout << " " << a.substr(a.find('.') + 1);
    std::cout << "\n";
  }
  for (const auto& f : o.reports)
    write_report_doc(
        validation_report_doc(
            Json{{"runs", Json::array({{{"name", r.scenario_name}, {"validation", v}}})}},
            r.scenario_name + " against " + label),
        f);
  std::cout << validate_text(v, label);
  return 0;
}
}  // namespace

PDSIM_CLI_COMMAND(
    validate, "validate",
    "compare predictions with measured bench_serving runs (a scenario and a record, or a "
    "validation set)",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<ValidateOptions>();
      app.add_option("input", o->input,
                     "scenario JSON, or a validation set (pdsim.validation_set/1)")
          ->required();
      app.add_option(
          "--measured", o->measured,
          "bench_serving --output-file (JSONL), with a scenario; FILE:LINE picks a record");
      app.add_option("--line", o->line, "line of the JSONL file to use (default: the last record)");
      app.add_option("--seed", o->seed, "random seed (default: the scenario's)")
          ->check(pdsim::cli::kNonNegativeSeed);
      app.add_option("--set", o->sets, "override a scenario field: dotted.path=value");
      app.add_option("--profile-overlay", o->overlays,
                     "apply a profile overlay after the scenario's own (repeatable)");
      pdsim::cli::add_jobs_option(app, o->jobs, "simulations of a validation set");
      pdsim::cli::add_progress_option(app, o->progress);
      app.add_flag("--scenario-workload", o->scenario_workload,
                   "with a scenario and --measured: keep the scenario's workload instead of the "
                   "record's (a difference is then a warning)");
      app.add_option("--out", o->out, "also write run outputs and validation.json here");
      app.add_option("--report", o->reports,
                     "also write a report: FILE.html (charts), .md or .csv (repeatable)");
      return [o] {
        for (const auto& f : o->reports) pdsim::check_report_path(f);
        return pdsim::is_validation_set(o->input) ? validate_set(*o) : validate_scenario(*o);
      };
    })

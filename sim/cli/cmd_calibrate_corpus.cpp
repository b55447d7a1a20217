#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "reports/validation_report.hpp"
#include "sim/cli/calibrate_corpus.hpp"
#include "sim/cli/jobs_option.hpp"
#include "sim/cli/progress_option.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/progress.hpp"
#include "sim/fit/deployment_spread.hpp"
#include "sim/fit/set_predictor.hpp"
#include "sim/fit/validation_set.hpp"
#include "sim/serve/cost/profile_overlay.hpp"

namespace pdsim::cli {
namespace {

struct CorpusOptions {
  std::vector<std::string> sets;
  std::string out, name, progress;
  int jobs = 1;
};

// The overlays applied to a run's prediction whose fit used this run: one of its provenance runs
// is this run (its measured file and, for a set whose points sit in the set file itself, its
// name), and a metric of it is among the fit's residuals (a run the fit loaded but compared
// nothing of, e.g. a prefill point in a TPOT fit, stays out of sample).
std::vector<std::string> fitted_by(const Deployment& d, const ValidationRun& run) {
  std::vector<std::string> out;
  const Json log = d.profiles.value("profile_overlays", Json::object());
  for (const auto& o : log.value("overlays", Json::array())) {
    if (!o.contains("provenance")) continue;
    bool used = false;
    for (const auto& r : o["provenance"].value("runs", Json::array()))
      used = used || (r.value("measured", "") == run.measured_file &&
                      r.value("name", run.name) == run.name);
    // The run's log carries each overlay's provenance, not its fit: read the file for that.
    const std::string file = o.value("file", "");
    const Json fit = used && !file.empty()
                         ? load_profile_overlay(file).doc.value("fit", Json::object())
                         : Json::object();
    if (used && fit.contains("residuals")) {
      used = false;
      for (const auto& e : fit["residuals"]) used = used || e.value("run", "") == run.name;
    }
    if (used) out.push_back(o.value("name", ""));
  }
  return out;
}

void add_set(CalibrationCorpus& c, const std::string& arg, const CorpusOptions& o) {
  const ValidationSet set = load_validation_set(arg);
  const SetPredictor pred(set, std::nullopt, o.jobs);
  std::optional<Progress> bar(std::in_place, set.name, progress_mode(o.progress));
  const std::vector<Json> predicted = pred.predict(pred.all_runs(), {});
  bar.reset();
  const Json v = validate_set_json(set, predicted);
  for (size_t i = 0; i < set.runs.size(); ++i) {
    const ValidationRun& run = set.runs[i];
    const bool inline_point = run.measured_file == set.file;
    CorpusRun cr{set.name,
                 run.name,
                 inline_point ? run.measured_file + "#" + run.name : run.measured_file,
                 deployment_coordinates(pred.deployments()[i]),
                 {},
                 fitted_by(pred.deployments()[i], run)};
    // What a fit may use: compared, and neither an artefact nor excluded from fitting (a
    // warm-up-dominated TTFT, a deadlocked transport) — a model error, not a measurement's.
    for (const auto& m : v["runs"][i]["validation"]["metrics"]) {
      const std::string key = m.value("key", "");
      if (m.value("status", "") != "ok" || !run.fittable(key) || key == "completed" ||
          key == "concurrency" || key.rfind("total_", 0) == 0)
        continue;
      if (m["measured"].get<double>() > 0 && m["predicted"].get<double>() > 0)
        cr.points.push_back({key, m["predicted"].get<double>(), m["measured"].get<double>()});
    }
    c.runs.push_back(std::move(cr));
  }
  c.provenance["sets"].push_back(
      {{"name", set.name}, {"file", set.file}, {"runs", set.runs.size()}});
}

std::string spread_text(const CalibrationCorpus& c) {
  std::string s;
  char buf[512];
  for (const auto& f : c.spreads) {
    s += f.family + " (" + f.help + "): ";
    if (f.tau <= 0) {
      s += "no estimate (" + std::to_string(f.groups.size()) + " deployment(s) out of sample)\n";
      continue;
    }
    const int inside = f.inside_90(), n = f.runs;
    std::snprintf(buf, sizeof buf,
                  "tau %.3f over %zu deployments, %d runs; leave one deployment out: %d of %d "
                  "inside their 90 %% interval\n",
                  f.tau, f.groups.size(), f.runs, inside, n);
    s += buf;
    s += "  runs  mean error    rms  tau without  inside 90 %  deployment\n";
    for (const auto& g : f.groups) {
      std::snprintf(buf, sizeof buf, "  %4d  %+8.1f %%  %5.3f  %11.3f  %6d/%-4d  %s\n", g.runs,
                    100 * (std::exp(g.mean_log_error) - 1), g.rms_log_error, g.tau_without,
                    g.inside_90, g.runs, g.deployment.c_str());
      s += buf;
    }
  }
  return s;
}

}  // namespace

std::function<int()> setup_calibrate_corpus(CLI::App* sub) {
  auto o = std::make_shared<CorpusOptions>();
  sub->add_option("sets", o->sets, "validation sets (files or names pdsim list prints)")
      ->required();
  sub->add_option("-o,--output", o->out, "calibration corpus to write")->required();
  sub->add_option("--name", o->name, "corpus name (default: the output file's stem)");
  add_jobs_option(*sub, o->jobs, "simulations");
  add_progress_option(*sub, o->progress);
  return [o] {
    CalibrationCorpus c;
    c.name = o->name.empty() ? std::filesystem::path(o->out).stem().string() : o->name;
    std::string cmd = "pdsim calibrate corpus";
    for (const auto& s : o->sets) cmd += " " + s;
    c.provenance = {{"kind", "fitted"},
                    {"command", cmd},  // without -o: the file's content does not depend on it
                    {"note",
                     "Each run predicted as its validation set configures it; the spread uses only "
                     "runs no applied overlay was fitted to (fitted_by empty)."},
                    {"sets", Json::array()}};
    for (const auto& s : o->sets) add_set(c, s, *o);
    c.spreads = estimate_spreads(c.runs);
    write_file_atomic(o->out, calibration_corpus_json(c).dump(2) + "\n");
    std::cout << spread_text(c) << "wrote " << o->out << " (" << c.runs.size() << " runs)\n";
    return 0;
  };
}

}  // namespace pdsim::cli

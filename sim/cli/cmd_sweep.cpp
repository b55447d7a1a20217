// pdsim sweep SWEEP.json [--results FILE] [--jobs N] [--shard i/N] [--analyze-only]
//                        [--report FILE.html|.md|.csv]...
// pdsim sweep merge A.jsonl B.jsonl... -o ALL.jsonl
#include <unistd.h>

#include <iostream>
#include <memory>

#include "reports/html_report.hpp"
#include "sim/cli/command.hpp"
#include "sim/cli/corpus_option.hpp"
#include "sim/cli/jobs_option.hpp"
#include "sim/cli/progress_option.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/output_target.hpp"
#include "sim/sweep/analysis.hpp"
#include "sim/sweep/results_file.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace {
struct SweepOptions {
  std::string sweep, results, analysis, shard = "0/1";
  int jobs = 0;
  bool analyze_only = false, no_progress = false;
  std::string progress;
  std::vector<std::string> merge_inputs, reports;
  std::string merge_out;
  std::string corpus = "sglang-pd";
};

std::string default_results(const pdsim::SweepSpec& s, const pdsim::Shard& shard) {
  return "out/sweeps/" + s.name + shard.suffix() + ".jsonl";
}

std::string analysis_path(const std::string& results) {
  const std::string stem = results.size() > 6 && results.ends_with(".jsonl")
                               ? results.substr(0, results.size() - 6)
                               : results;
  return stem + ".analysis.json";
}

int run_merge(const SweepOptions& o) {
  std::vector<int> missing;
  const auto lines = pdsim::merge_results(o.merge_inputs, o.merge_out, &missing);
  std::cout << "merged " << lines.size() << " points into " << o.merge_out << "\n";
  if (!missing.empty()) {
    std::cout << missing.size() << " points missing:";
    for (size_t i = 0; i < missing.size() && i < 20; ++i) std::cout << " " << missing[i];
    std::cout << (missing.size() > 20 ? " ...\n" : "\n");
  }
  return 0;
}

int run_sweep_cmd(const SweepOptions& o) {
  if (o.sweep.empty())
    throw pdsim::InputError("sweep", "", "expected a sweep file (or: sweep merge)");
  const pdsim::SweepSpec spec = pdsim::load_sweep(o.sweep);
  for (const auto& f : o.reports) pdsim::check_report_path(f);
  pdsim::SweepRunOptions opt;
  opt.shard = pdsim::parse_shard(o.shard);
  opt.results_path = o.results.empty() ? default_results(spec, opt.shard) : o.results;
  // An output written over the results or the sweep file would destroy what it is made from.
  const std::string analysis = o.analysis.empty() ? analysis_path(opt.results_path) : o.analysis;
  if (pdsim::same_file(opt.results_path, o.sweep))
    throw pdsim::InputError("--results", "", "a file other than the sweep file, got " + o.sweep);
  std::vector<std::pair<std::string, std::string>> outs{{"--analysis", analysis}};
  for (const auto& f : o.reports) outs.emplace_back("--report", f);
  for (const auto& [flag, f] : outs)
    for (const std::string& in : {opt.results_path, o.sweep})
      if (pdsim::same_file(f, in))
        throw pdsim::InputError(flag, "",
                                "a file other than the sweep file and the results file, got " + f);
  opt.jobs = o.jobs;
  const auto corpus = pdsim::cli::load_corpus_option(o.corpus);  // before any point runs
  if (corpus) opt.corpus = &*corpus;
  opt.progress = o.no_progress ? pdsim::ProgressMode::off : pdsim::progress_mode(o.progress);
  if (!o.analyze_only) {
    const pdsim::SweepRunStats st = pdsim::run_sweep(spec, opt, std::cerr);
    std::cout << "sweep " << spec.name << " shard " << o.shard << ": " << st.in_shard << " points, "
              << st.resumed << " already done, " << st.infeasible << " infeasible, " << st.ran
              << " simulated (" << st.errors << " errors) -> " << opt.results_path << "\n";
    if (opt.shard.count > 1) {
      std::cout << "merge the shards with `pdsim sweep merge ... -o ALL.jsonl`, then analyse with "
                   "`pdsim sweep "
                << o.sweep << " --results ALL.jsonl --analyze-only`\n";
      return 0;
    }
  }
  const std::vector<pdsim::Json> lines = pdsim::read_results(opt.results_path);
  const pdsim::Json a = pdsim::analyze_sweep(spec, lines);
  const std::string& out = analysis;
  pdsim::write_file_atomic(out, a.dump(2) + "\n");
  std::cout << pdsim::analysis_text(a) << "Analysis written to " << out << "\n";
  for (const auto& f : o.reports) {
    pdsim::write_report_doc(pdsim::sweep_report_doc(lines, opt.results_path, spec.name, a), f);
    std::cout << "Report written to " << f << "\n";
  }
  return 0;
}
}  // namespace

PDSIM_CLI_COMMAND(
    sweep, "sweep",
    "run a grid or list of scenario variants (resumable, --jobs, --shard) and SLO search",
    [](CLI::App& app) -> std::function<int()> {
      auto o = std::make_shared<SweepOptions>();
      app.add_option("sweep", o->sweep, "sweep JSON file (docs/sweep.md)");
      app.add_option(
          "--results", o->results,
          "results file, one JSON line per point (default out/sweeps/<name>[.shard-i-of-N].jsonl)");
      pdsim::cli::add_jobs_option(app, o->jobs, "sweep points");
      app.add_option("--shard", o->shard,
                     "run shard i of N (0-based): points with index mod N == i");
      app.add_flag("--analyze-only", o->analyze_only,
                   "analyse an existing results file, run nothing");
      app.add_option("--analysis", o->analysis,
                     "analysis JSON (default <results stem>.analysis.json)");
      app.add_option("--report", o->reports,
                     "also write a report of the results: FILE.html (charts), .md or .csv "
                     "(repeatable; after the analysis, so not with --shard i/N, N > 1)");
      pdsim::cli::add_progress_option(app, o->progress);
      app.add_flag("--no-progress", o->no_progress, "the same as --progress off");
      pdsim::cli::add_corpus_option(app, o->corpus);
      CLI::App* merge = app.add_subcommand("merge", "merge shard results files into one");
      merge->add_option("inputs", o->merge_inputs, "results files")->required();
      // -o/--output like every one-file output; --out kept for scripts written before.
      merge->add_option("-o,--output,--out", o->merge_out, "merged results file")->required();
      return [o, merge] { return merge->parsed() ? run_merge(*o) : run_sweep_cmd(*o); };
    })

#pragma once
// Report files for `pdsim run`, `compare` and `sweep` (`--report FILE`; validate and the fit:
// html_validation_report.hpp): the form follows the extension — .html (self-contained page with
// Chart.js charts, docs/reports.md lists them), .md (the same tables in Markdown), .csv (the
// same tables, tidy: table,row,column,value). Written atomically.
#include <string>
#include <vector>

#include "reports/html_doc.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

struct RunView {
  std::string name;
  const SimResults* results = nullptr;
  Json summary;          // bench_summary(*results)
  Json seeds = nullptr;  // this run's seed_intervals entry (sim/sweep/seed_intervals.hpp), or null
  Json intervals = nullptr;  // its prediction_intervals (sim/fit/parameter_samples.hpp), or null
};

// One run (one view) or a comparison (two views: A then B, deltas B − A).
ReportDoc run_report_doc(const std::vector<RunView>& runs);
// A sweep's result lines (the `pdsim sweep` JSONL contract); `file` names them in errors.
// `name`: the sweep's name for the title (results lines carry only the sweep's hash, shown when
// no name is given).
// `analysis` (analyze_sweep's, optional) adds the SLO lines, the capacity table and the cheapest
// configuration with its SGLang flags.
ReportDoc sweep_report_doc(const std::vector<Json>& lines, const std::string& file = "<sweep>",
                           const std::string& name = "", const Json& analysis = nullptr);

// Renders by the extension of `path` (.html, .md, .csv; InputError naming --report otherwise).
std::string render_report_doc(const ReportDoc& doc, const std::string& path);
void write_report_doc(const ReportDoc& doc, const std::string& path);

void write_run_report(const std::string& path, const RunView& run);
void write_compare_report(const std::string& path, const RunView& a, const RunView& b);
void write_sweep_report(const std::vector<Json>& lines, const std::string& path);

// Checks `path` has a supported extension (and, for .html, that the vendored Chart.js is
// readable) before a long run starts.
void check_report_path(const std::string& path);

}  // namespace pdsim

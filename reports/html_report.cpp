// Report files by extension, and the "html" report writer for run directories.
#include "reports/html_report.hpp"

#include "reports/report_writer.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

std::string extension(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

class HtmlReport : public ReportWriter {
 public:
  std::string render(const SimResults& r, const Json& summary) const override {
    return render_html(run_report_doc({{r.scenario_name, &r, summary}}), vendored_chart_js());
  }
  std::string file_name() const override { return "report.html"; }
};

}  // namespace

void check_report_path(const std::string& path) {
  const std::string ext = extension(path);
  if (ext != ".html" && ext != ".md" && ext != ".csv")
    throw InputError("<command line>", "--report",
                     "a file ending in .html, .md or .csv, got \"" + path + "\"");
  if (ext == ".html") vendored_chart_js();  // a missing library fails now, not after the run
}

std::string render_report_doc(const ReportDoc& doc, const std::string& path) {
  check_report_path(path);
  const std::string ext = extension(path);
  if (ext == ".html") return render_html(doc, vendored_chart_js());
  if (ext == ".md") return render_markdown(doc);
  return render_csv(doc);
}

void write_report_doc(const ReportDoc& doc, const std::string& path) {
  write_file_atomic(path, render_report_doc(doc, path));
}

void write_run_report(const std::string& path, const RunView& run) {
  write_report_doc(run_report_doc({run}), path);
}

void write_compare_report(const std::string& path, const RunView& a, const RunView& b) {
  write_report_doc(run_report_doc({a, b}), path);
}

void write_sweep_report(const std::vector<Json>& lines, const std::string& path) {
  write_report_doc(sweep_report_doc(lines), path);
}

PDSIM_REGISTER(ReportWriterRegistry, "html",
               "report.html: self-contained page with ITL CDF, breakdown and KV-timeline charts "
               "(Chart.js inlined)",
               [] { return std::make_unique<HtmlReport>(); })

}  // namespace pdsim

#pragma once
// A report as data: tables (rendered as HTML, Markdown or CSV) and charts (Chart.js
// configurations, rendered only in HTML). run, compare and sweep reports build one ReportDoc;
// the three renderers show the same tables.
//
// CSV form: one tidy file with columns `table,row,column,value` (every cell one line, numbers
// lossless), so tables of any shape share a file: select `table`, pivot `column` by `row`.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct ReportTable {
  std::string id;     // stable machine name, e.g. "itl_percentiles"
  std::string title;  // heading
  std::vector<std::string> columns;
  std::vector<int> decimals;            // per column, for HTML/Markdown; < 0: as is
  std::vector<std::vector<Json>> rows;  // cells: number, string or null ("n/a")
};

struct ReportChart {
  std::string id, title, note;  // note: one line under the title (what is plotted)
  Json config;                  // Chart.js configuration {type, data, options}
  int height_px = 0;            // 0: the page default (340 px)
};

struct ReportDoc {
  std::string title, subtitle;
  std::vector<ReportChart> charts;
  std::vector<ReportTable> tables;
};

// A cell as HTML/Markdown text ("n/a" for null, fixed decimals for numbers).
std::string cell_text(const Json& cell, int decimals);
std::string render_markdown(const ReportDoc& doc);
std::string render_csv(const ReportDoc& doc);
// The self-contained page: Chart.js inlined from `chart_js` (the library's source text). The
// page's script sets <body data-charts-rendered="N"> once N charts were drawn (checked by
// tests/html/screenshot.sh in headless Chromium).
std::string render_html(const ReportDoc& doc, const std::string& chart_js);
// The vendored Chart.js (third_party/chartjs/chart.umd.min.js under the data directory);
// InputError naming the path if it is missing.
std::string vendored_chart_js();

}  // namespace pdsim

#pragma once
// Report pages (--report FILE.html|.md|.csv) of `pdsim validate` and `pdsim calibrate serving`:
// what was predicted against what was measured, as charts and tables.
//   validate: % error per metric per run (bars, ±10 % guides), predicted against measured on
//             log axes (the parity line y = x), and every row with its status and note;
//   fit:      % error per (run, metric) with the profiles alone, fitted, and left out (the
//             leave-one-out 90 % interval as a band), each parameter's value and 90 % interval
//             within its --fit range (a band), and the tables of `calibrate serving`'s stdout.
#include "reports/html_doc.hpp"
#include "sim/core/json_reader.hpp"
#include "sim/fit/serving_fit.hpp"

namespace pdsim {

// `validation`: {"runs": [{"name", "validation": validate_against(...)}], ...} (validate_set_json,
// or one run wrapped so); `title` names what was validated.
ReportDoc validation_report_doc(const Json& validation, const std::string& title);
// Dashed ±10 % lines over `n` categories, appended to a bar chart's datasets.
void add_error_guides(Json& datasets, size_t n);

ReportDoc serving_fit_report_doc(const ValidationSet& set, const ServingFitResult& fit);

}  // namespace pdsim

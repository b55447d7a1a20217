#pragma once
// The SLO parts of a sweep page: threshold lines on the TTFT / TPOT charts, the capacity each
// configuration reached under the SLOs (the rate it met them at and the rate it achieved there,
// never a rate it did not reach), and the cheapest configuration with its SGLang flags (from
// the sweep's analysis, sim/sweep/analysis.hpp).
#include <vector>

#include "reports/html_doc.hpp"
#include "reports/html_series.hpp"

namespace pdsim {

// Horizontal lines at the SLO's mean_/p99_<metric>_ms from x_lo to x_hi, appended to `chart`.
void add_slo_lines(Json& chart, const Json& slo, const std::string& metric, double x_lo,
                   double x_hi);
// One row per ok point that ran the capacity search (its results line's slo.evaluations).
ReportTable capacity_table(const std::vector<SweepResultPoint>& pts);
// The cheapest configuration and its flags; one row saying none meets the SLOs; nothing
// without SLOs or without an analysis.
std::vector<ReportTable> cheapest_tables(const Json& analysis);

}  // namespace pdsim

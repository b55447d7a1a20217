#pragma once
// Sections of the run / compare page beyond the latency charts (html_run_report.cpp): the ITL
// tail attributed to forward terms and mechanisms, the run's state over time, and the spread
// over seeds and over the fitted parameters as bands. Each appends its charts and tables.
#include <string>
#include <vector>

#include "reports/html_report.hpp"

namespace pdsim {

void add_tail_sections(ReportDoc& d, const std::vector<RunView>& runs);
void add_time_series_sections(ReportDoc& d, const std::vector<RunView>& runs,
                              const std::vector<std::string>& colours);
// KV-cache traffic into each decode instance over time; the all-to-all time by modelled term
// (html_network_section.cpp).
void add_network_sections(ReportDoc& d, const std::vector<RunView>& runs,
                          const std::vector<std::string>& colours);
// The summaries' pdsim.envelope as tables right after the metrics (html_envelope_section.cpp);
// nothing when no run carries one.
void add_envelope_sections(ReportDoc& d, const std::vector<RunView>& runs);
// Each instance that joined or left, with TTFT / ITL before and after (html_elastic_section.cpp);
// nothing when no run is elastic.
void add_elastic_sections(ReportDoc& d, const std::vector<RunView>& runs);
// Nothing when no run carries seeds or intervals.
void add_interval_sections(ReportDoc& d, const std::vector<RunView>& runs,
                           const std::vector<std::string>& colours);

}  // namespace pdsim

// "markdown": key metrics and the decode-forward breakdown as Markdown tables.
#include "reports/breakdown.hpp"
#include "reports/report_writer.hpp"
#include "reports/text_format.hpp"

namespace pdsim {
namespace {

class MarkdownReport : public ReportWriter {
 public:
  std::string render(const SimResults& r, const Json& s) const override {
    std::string o = "# pdsim run: " + (r.scenario_name.empty() ? "(unnamed)" : r.scenario_name) +
                    "\n\nSeed " + std::to_string(r.seed) + ", " + summary_fixed(s, "completed", 0) +
                    " requests completed in " + summary_fixed(s, "duration") + " s.\n\n";
    o += "| Metric | Mean | Median | P99 |\n|---|---:|---:|---:|\n";
    for (const auto& [label, key] : {std::pair{"TTFT (ms)", "ttft"},
                                     {"TPOT (ms)", "tpot"},
                                     {"ITL (ms)", "itl"},
                                     {"E2E latency (ms)", "e2e_latency"}}) {
      const std::string k = key;
      o += std::string("| ") + label + " | " + summary_fixed(s, "mean_" + k + "_ms") + " | " +
           summary_fixed(s, "median_" + k + "_ms") + " | " + summary_fixed(s, "p99_" + k + "_ms") +
           " |\n";
    }
    o += "\n| Throughput | Value |\n|---|---:|\n";
    o += "| Requests (req/s) | " + summary_fixed(s, "request_throughput", 3) + " |\n";
    o += "| Output tokens (tok/s) | " + summary_fixed(s, "output_throughput") + " |\n";
    o += "| Concurrency | " + summary_fixed(s, "concurrency") + " |\n";
    o += "| Max ITL (ms) | " + summary_fixed(s, "max_itl_ms") + " |\n";
    if (summary_number(s, "accept_length"))
      o += "| Accept length | " + summary_fixed(s, "accept_length") + " |\n";
    const auto terms = forward_terms(s);
    if (!terms.empty()) {
      o += "\n## Decode forward breakdown (mean µs per forward)\n\n| Term | µs |\n|---|---:|\n";
      for (const auto& t : terms) o += "| " + t.name + " | " + fmt_fixed(t.us, 2) + " |\n";
    }
    return o;
  }
  std::string file_name() const override { return "summary.md"; }
};

}  // namespace

PDSIM_REGISTER(ReportWriterRegistry, "markdown", "summary.md: key metrics and breakdown tables",
               [] { return std::make_unique<MarkdownReport>(); })

}  // namespace pdsim

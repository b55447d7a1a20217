#pragma once
// Report writers, a registered family ("text", "json", "csv-requests", "csv-itl", "markdown"):
// each renders one document from a run's records and its bench_serving summary. Adding a
// format is one PDSIM_REGISTER(ReportWriterRegistry, ...) in its own file.
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/core/registry.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  // `summary` is bench_summary(results).
  virtual std::string render(const SimResults& results, const Json& summary) const = 0;
  virtual std::string file_name() const = 0;  // default name inside an output directory
};
using ReportWriterRegistry = Registry<"report.format", ReportWriter>;

// Renders with the writer registered as `name` (InputError listing the names if unknown).
std::string render_report(const std::string& name, const SimResults& results, const Json& summary);

}  // namespace pdsim

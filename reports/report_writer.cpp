#include "reports/report_writer.hpp"

namespace pdsim {

std::string render_report(const std::string& name, const SimResults& results, const Json& summary) {
  return ReportWriterRegistry::instance()
      .create(name, "", "report format")
      ->render(results, summary);
}

}  // namespace pdsim

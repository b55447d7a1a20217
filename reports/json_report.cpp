// "json": the summary as bench_serving-keyed JSON (sorted keys, 2-space indent, so the same
// results give byte-identical files).
#include "reports/report_writer.hpp"

namespace pdsim {
namespace {

class JsonReport : public ReportWriter {
 public:
  std::string render(const SimResults&, const Json& summary) const override {
    return summary.dump(2) + "\n";
  }
  std::string file_name() const override { return "summary.json"; }
};

}  // namespace

PDSIM_REGISTER(ReportWriterRegistry, "json", "summary.json: bench_serving keys plus a pdsim block",
               [] { return std::make_unique<JsonReport>(); })

}  // namespace pdsim

#include "reports/run_outputs.hpp"

#include "reports/report_writer.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/serve/entities/bench_metrics.hpp"

namespace pdsim {

Json write_run_outputs(const SimResults& results, const std::string& out_dir,
                       const std::function<void(Json&)>& amend) {
  Json summary = bench_summary(results);
  if (amend) amend(summary);
  const std::string dir = out_dir.empty() ? std::string(".") : out_dir;
  for (const char* name : {"json", "csv-requests", "csv-itl"}) {
    auto w = ReportWriterRegistry::instance().create(name, "", "report format");
    write_file_atomic(dir + "/" + w->file_name(), w->render(results, summary));
  }
  Json resolved = Json::object();
  resolved["scenario"] = results.resolved_scenario;
  resolved["profiles"] = results.profiles;
  resolved["seed"] = results.seed;
  write_file_atomic(dir + "/scenario.resolved.json", resolved.dump(2) + "\n");
  return summary;
}

}  // namespace pdsim

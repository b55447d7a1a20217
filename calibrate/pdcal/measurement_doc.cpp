#include "calibrate/pdcal/measurement_doc.hpp"

#include <unistd.h>

#include <ctime>

#include "calibrate/measurement.hpp"
#include "sim/core/atomic_file.hpp"

namespace pdsim::pdcal {

std::string iso_time_utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

nlohmann::json MeasurementDoc::to_json(const std::string& error) const {
  nlohmann::json ctx = context;
  ctx["complete"] = error.empty();
  if (!error.empty()) ctx["error"] = error;
  nlohmann::json prov = {{"kind", "measured"},
                         {"source", "pdcal " + probe},
                         {"tool", "pdcal " PDCAL_VERSION},
                         {"measured_at", iso_time_utc_now()},
                         {"host", host_name()}};
  if (!error.empty()) prov["note"] = "partial: the probe ended early: " + error;
  return {{"schema", kMeasurementSchema}, {"probe", probe},
          {"provenance", prov},           {"context", ctx},
          {"parameters", parameters},     {"results", results}};
}

void MeasurementDoc::write(const std::string& path, const std::string& error) const {
  // Peer text is validated before it reaches a message; `replace` keeps a byte that slipped
  // through from costing the whole file (the strict default throws).
  write_file_atomic(
      path, to_json(error).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace pdsim::pdcal

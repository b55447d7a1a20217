#pragma once
// The measurement JSON a pdcal run writes (schema pdsim.measurement/1, see
// calibrate/measurement.hpp): envelope, provenance (host, time, tool), context (transport,
// rank, memcpy bound, completion status) and the probe's parameters and rows.
#include <nlohmann/json.hpp>
#include <string>

namespace pdsim::pdcal {

struct MeasurementDoc {
  std::string probe;
  nlohmann::json parameters = nlohmann::json::object();
  nlohmann::json context = nlohmann::json::object();
  nlohmann::json results = nlohmann::json::array();

  // `error` empty: the run completed. Otherwise the document says it is partial and why.
  nlohmann::json to_json(const std::string& error) const;
  void write(const std::string& path, const std::string& error) const;  // atomic
};

std::string iso_time_utc_now();
std::string host_name();

}  // namespace pdsim::pdcal

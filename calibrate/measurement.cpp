#include "calibrate/measurement.hpp"

#include "sim/core/provenance.hpp"

namespace pdsim {

JsonNode load_measurement(const std::string& path) {
  JsonNode doc = JsonNode::load_file(path);
  if (doc.at("schema").string() != kMeasurementSchema)
    doc.at("schema").fail(std::string("expected \"") + kMeasurementSchema + "\"");
  doc.at("probe").string();
  read_provenance(doc.at("provenance"));
  if (!doc.at("results").is_array()) doc.at("results").fail("expected an array of result rows");
  return doc;
}

}  // namespace pdsim

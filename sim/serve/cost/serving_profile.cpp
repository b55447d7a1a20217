#include "sim/serve/cost/serving_profile.hpp"

namespace pdsim {

bool ServingProfile::overlap_on(bool speculative) const {
  if (decode.overlap_scheduler == "auto") return !speculative;
  return decode.overlap_scheduler == "on";
}

ServingProfile serving_profile_from_json(const Json& doc, const std::string& file) {
  return read_fields<ServingProfile>(JsonNode::from_json(doc, file));
}

}  // namespace pdsim

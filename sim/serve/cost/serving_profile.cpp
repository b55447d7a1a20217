#include "sim/serve/cost/serving_profile.hpp"

#include "sim/core/excerpt.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

bool ServingProfile::overlap_on(bool speculative) const {
  // SGLang 0.5.x (server_args): EAGLE without SGLANG_ENABLE_SPEC_V2 disables the overlap scheduler.
  if (overlap == Overlap::automatic) return !speculative;
  return overlap == Overlap::on;
}

ServingProfile serving_profile_from_json(const Json& doc, const std::string& file) {
  JsonNode n = JsonNode::from_json(doc, file);
  n.expect_only({"schema", "name", "stack", "provenance", "decode", "prefill"});
  if (n.at("schema").string() != kServingProfileSchema)
    n.at("schema").fail(std::string("expected \"") + kServingProfileSchema + "\"");
  ServingProfile p;
  p.name = n.at("name").string();
  p.provenance = read_provenance(n.at("provenance"));
  const JsonNode d = n.at("decode");
  d.expect_only({"overlap_scheduler", "host_us_per_iteration", "host_us_per_graph_replay"});
  const std::string o = d.at("overlap_scheduler").string();
  if (o == "auto")
    p.overlap = ServingProfile::Overlap::automatic;
  else if (o == "on")
    p.overlap = ServingProfile::Overlap::on;
  else if (o == "off")
    p.overlap = ServingProfile::Overlap::off;
  else
    d.at("overlap_scheduler").fail("expected one of auto, on, off, got \"" + excerpt(o) + "\"");
  p.host_us_per_iteration = d.at("host_us_per_iteration").non_negative();
  p.host_us_per_graph_replay = d.at("host_us_per_graph_replay").non_negative();
  const JsonNode pf = n.at("prefill");
  pf.expect_only({"host_us_per_chunk"});
  p.prefill_host_us_per_chunk = pf.at("host_us_per_chunk").non_negative();
  return p;
}

}  // namespace pdsim

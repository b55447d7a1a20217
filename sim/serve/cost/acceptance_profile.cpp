#include "sim/serve/cost/acceptance_profile.hpp"

#include "sim/core/error.hpp"
#include "sim/core/provenance.hpp"

namespace pdsim {

AcceptanceProfile acceptance_profile_from_json(const Json& doc, const std::string& file) {
  JsonNode n = JsonNode::from_json(doc, file);
  n.expect_only({"schema", "name", "model", "draft", "acceptance_model", "provenance", "datasets"});
  if (n.at("schema").string() != kAcceptanceProfileSchema)
    n.at("schema").fail(std::string("expected \"") + kAcceptanceProfileSchema + "\"");
  if (n.at("acceptance_model").string() != "chain-geometric")
    n.at("acceptance_model").fail("expected \"chain-geometric\"");
  AcceptanceProfile p;
  p.name = n.at("name").string();
  p.model = n.at("model").string();
  p.provenance = read_provenance(n.at("provenance"));
  const JsonNode ds = n.at("datasets");
  if (!ds.is_object() || ds.size() == 0) ds.fail("expected an object with at least one dataset");
  for (const auto& k : ds.keys()) {
    const JsonNode d = ds.at(k);
    d.expect_only({"accept_prob", "source", "note"});
    d.at("accept_prob").fraction();
    d.at("source").string();
  }
  p.datasets = ds.raw();
  return p;
}

double AcceptanceProfile::accept_prob(const std::string& dataset,
                                      const std::string& scenario_file) const {
  if (!datasets.contains(dataset))
    throw InputError(scenario_file, "decode.speculative.acceptance",
                     "acceptance profile '" + name + "' has no figure for dataset '" + dataset +
                         "'; give decode.speculative.acceptance.accept_prob");
  return datasets.at(dataset).at("accept_prob").get<double>();
}

}  // namespace pdsim

#pragma once
// Acceptance profile (models/profiles/acceptance/MODEL.json, schema "pdsim.acceptance_profile/1"):
// how often a model's draft (MTP / EAGLE) tokens are accepted, per workload dataset — a property
// of the model and of the text it generates, not of the fabric or the serving stack. The value
// is the chain-geometric per-token acceptance probability (acceptance.hpp). bench_serving's
// `random` dataset is real ShareGPT text truncated or repeated to length (sample_random_requests),
// so ShareGPT figures apply to it.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct AcceptanceProfile {
  std::string name, model;
  Json provenance;
  Json datasets;  // {"random": {"accept_prob": p, "source": "..."}, ...}
  // The probability for `dataset`; InputError naming `scenario_file` when the profile has none.
  double accept_prob(const std::string& dataset, const std::string& scenario_file) const;
};

AcceptanceProfile acceptance_profile_from_json(const Json& doc, const std::string& file);

constexpr const char* kAcceptanceProfileSchema = "pdsim.acceptance_profile/1";

}  // namespace pdsim

#pragma once
// The prior of an all-to-all backend's in-serving fixed cost (`fixed_us`, linear_a2a_backend.hpp)
// from published serving figures (probe "a2a_serving_excess": one row per backend and phase,
// {"backend", "phase", "serving_us", "unit_test_us"}: the phase's time inside a real serving
// system and in the library's own unit test). Microbenchmarks cannot identify the term, and a
// backend with no measured serving run in the corpus cannot fit it (issue 27, item 6), so the
// profile carries it as an interval:
//   excess = serving_us − unit_test_us (the largest over the backend's rows),
//   prior  = uniform on [0, excess], value = its mean, excess / 2.
// Why the lower end is 0: the excess also holds the wait for the slowest rank (expert-load
// imbalance, ranks arriving late), which pdsim's routing samples model in part, so how much of
// it is left for fixed_us is unknown; all of it is the upper end. The figure of one phase bounds
// both (fixed_us is one parameter for dispatch and combine): an assumption where only one phase
// is published, stated in the basis.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct ServingPrior {
  bool found = false;  // the files hold rows for this backend
  double lower_us = 0, upper_us = 0, value_us = 0;
  std::string basis;  // one sentence: the figures and the rule
  Json report;        // rows (file, row, excess) and the rule, for the profile's fit block
};

// InputError (file, row, field) when a row is malformed or serving_us < unit_test_us.
ServingPrior serving_fixed_prior(const std::string& backend, const std::vector<JsonNode>& docs);

// The backends that the files' "a2a_serving_excess" rows name, sorted, without repeats.
std::vector<std::string> serving_prior_backends(const std::vector<JsonNode>& docs);

}  // namespace pdsim

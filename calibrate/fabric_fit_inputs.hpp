#pragma once
// What a fabric-profile fit needs from its measurement files, checked all at once before anything
// is fitted (issue 28: a fit from a user's own DeepEP / perftest output failed on the first
// missing input, then on the next, until the user found the project's published files). Each
// requirement is tested by the fit's own reader (fit_link.hpp) on the files given; what none of
// them provides is named in one error, with the published files (calibrate/published) that the
// same reader accepts as a stand-in, so the user can add their own measurement or one of those.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct FitInputNeed {
  std::string what;                    // 'a "pingpong" measurement for rdma_alpha_us'
  std::vector<std::string> stand_ins;  // calibrate/published files that provide it
};

// The needs `docs` (the measurement files given) leave unmet; `backends`: the all-to-all
// backends their rows measure (cpu-proxy and nvshmem-proxy need their proxy configuration).
std::vector<FitInputNeed> unmet_fit_inputs(const std::vector<JsonNode>& docs,
                                           const std::vector<std::string>& backends);

// InputError listing every unmet need with its stand-ins; nothing when all are met.
void require_fit_inputs(const std::vector<JsonNode>& docs,
                        const std::vector<std::string>& backends);

}  // namespace pdsim

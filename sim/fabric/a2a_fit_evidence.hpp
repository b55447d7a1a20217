#pragma once
// What a run's all-to-all numbers rest on, for its summary: the fabric profile's fit of the
// backend (rows, RMS residual, the EP degrees measured) and, per fitted parameter, its value with
// its standard error and the value each alternate measurement file gives on its own. A user reads
// from it how far the prediction leaves what was measured (another EP degree, another build).
#include <string>

#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

// null when the profile has no fit record for the backend (a hand-written block).
Json a2a_fit_evidence(const FabricProfile& p, const std::string& backend);

}  // namespace pdsim

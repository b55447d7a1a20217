#pragma once
// Inputs that change nothing in a run: a setting of a tail mechanism switched off, an edited
// value under a profile's `from_profile` (information only), speculative-decoding settings with
// speculation off, a TCP transport with KV over RDMA, packet samples at analytic fidelity. Each is
// a warning, not an error (a resolved scenario or a sweep base legitimately carries them): pdsim
// prints it on stderr and records it in the output's provenance (`input_warnings`), so a user
// who expected the setting to matter finds out.
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"

namespace pdsim {

std::vector<std::string> no_effect_warnings(const Scenario& s);

}  // namespace pdsim

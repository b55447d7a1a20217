#pragma once
// The parameters `pdsim calibrate serving --init` writes into a new validation set's "fit" list
// when no --fit is given: the shipped fit of the reference deployment, read from the command in
// the provenance of calibrate/overlays/glm51-2p2d-p5en-20260430.json (the overlay that fit
// wrote; calibrate/README.md, "The shipped fit" explains each parameter and its range), so the
// list lives in one data file: the all-to-all CPU proxy's fixed and per-extra-NIC cost, the host
// work per decode iteration and per prefill chunk, EAGLE's acceptance on random text. Runs that
// cannot move one of them (no EAGLE run, no change of NICs) make `calibrate serving` name it;
// edit the list in the set then.
#include <string>
#include <vector>

namespace pdsim {

// The shipped overlay the list comes from (under the data directory).
inline constexpr const char* kRecommendedFitOverlay =
    "calibrate/overlays/glm51-2p2d-p5en-20260430.json";

// Each `--fit SPEC` of the overlay's provenance.command, in order; InputError naming the file
// and provenance.command if it is missing or holds none.
std::vector<std::string> recommended_serving_fit();
// The `--fit` specs of one command line (exposed for tests).
std::vector<std::string> fit_specs_of_command(const std::string& command);

}  // namespace pdsim

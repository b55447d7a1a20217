#pragma once
// Several validation sets fitted as one (issue 27, item 2): `pdsim calibrate serving SET SET...`.
// A parameter belongs to one thing (a serving stack, a fabric's all-to-all library, a collective
// library stack) and has one value wherever that thing appears, so a fit of it sees every run of
// every set that uses it. The runs keep their own scenarios and overrides (each set's common
// overrides then the run's); a run that does not use a parameter's profile is simply not moved
// by it. Run names must be unique across the sets (the overlay's provenance names runs).
#include <vector>

#include "sim/fit/validation_set.hpp"

namespace pdsim {

// One set from several: name "A + B", no file of its own (file empty), provenance
// {"kind": "joint", "sets": [{"name", "file", "provenance"}]}, no default fit list. InputError
// naming the later set's file and run for a run name already used.
ValidationSet joint_validation_set(const std::vector<ValidationSet>& sets);

}  // namespace pdsim

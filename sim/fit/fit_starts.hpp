#pragma once
// Start points of a multi-start fit: the profiles' values first (each parameter's `start`), then
// points of the Halton sequence (bases 2, 3, 5, 7, … one per parameter; indices 1, 2, …) scaled
// into each parameter's [lo, hi]. A low-discrepancy sequence rather than random draws: the
// points cover the box evenly for any count, and they depend on nothing but the count and the
// ranges, so a fit is deterministic and leave-one-out can start from the same points without
// information from the run it leaves out.
#include <vector>

#include "sim/fit/fit_parameter.hpp"

namespace pdsim {

// Element k of the Halton sequence in `base` (radical inverse of k), in [0, 1).
double halton(unsigned k, unsigned base);
// `count` start points (count >= 1), each a full parameter vector.
std::vector<std::vector<double>> fit_starts(const std::vector<FitParameter>& params, int count);

}  // namespace pdsim

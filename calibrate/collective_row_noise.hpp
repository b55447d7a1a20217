#pragma once
// How precisely each nccl-tests row measures its call, as a variance of its relative (log) time,
// so that the collective fit (calibrate/fit_collective) weighs a row by what it can tell:
//  - print resolution: a value printed to a unit u is off by a rounding error uniform in ±u/2,
//    variance u²/12. nccl-tests prints bus bandwidth as %.2f GB/s, so a busbw row's unit is
//    0.01 GB/s (or its own last decimal where finer); a time row's unit is its last decimal.
//    At 8 KiB (0.12 GB/s) that alone is ±4 %; above 100 MiB it is nothing.
//  - repeatability: rows of one instance type, op and size (nccl-tests' out-of-place and
//    in-place runs of one call, or repeated files) measure the same thing; the sample variance of
//    their ln(time) is the run-to-run noise there (at 64 KiB on p5 the two differ 1.9×). A size
//    measured once borrows the repeatability measured at the same size on another instance type
//    of the pool, else the median repeatability over the sizes that have one (0 if none has).
// What neither explains — the model's own error and the spread between instance types — is the
// fit's variance component, estimated there.
#include <vector>

#include "calibrate/fit_collective.hpp"

namespace pdsim {

// 10^-d for the d decimals of v's shortest round-trip decimal form (1 for an integer).
double printed_unit(double v);

// One variance per row (same order): print resolution plus repeatability.
std::vector<double> collective_row_variances(const std::vector<CollectiveRow>& rows);

}  // namespace pdsim

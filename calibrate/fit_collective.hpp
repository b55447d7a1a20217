#pragma once
// `pdsim calibrate collective`: nccl-tests rows (measurement files of probe "collective", with
// parameters.ranks and parameters.nodes) → a collective profile (sim/fabric/collective_profile).
//
// One curve per (op, ranks, nodes), rows of every file pooled: files measured on different
// instance types with the same library stack and per-node NIC bandwidth share one curve, so a
// parameter has one value wherever its stack appears (the report keeps each row's residual with
// its instance). Per curve, the distinct sizes are split into 1..max_regimes contiguous regimes
// (NCCL's protocols; at least two sizes each), every split is fitted — per regime, time
// = alpha + S_bus / busbw by bounded least squares in relative error (calibrate/bounded_lsq) —
// and the split with the lowest BIC wins. Rows are weighted by their own precision: each row's
// measurement variance (print resolution and the repeatability of its size,
// calibrate/collective_row_noise) plus one variance component tau² for what the rows do not
// explain (the model's error, the spread between pooled instance types), tau chosen per split
// by maximum likelihood. So a 64 KiB point whose two placements differ 1.9× cannot pull the curve
// away from 1 MiB rows that agree within 1 %. Uncertainty: each regime's standard errors and RMS
// relative error, tau, each row's busbw error and noise, and every candidate split with its BIC.
#include <string>
#include <vector>

#include "sim/fabric/collective_profile.hpp"

namespace pdsim {

struct CollectiveFitOptions {
  std::vector<std::string> files;
  std::string name, library, fabric;
  int max_regimes = 3;  // LL, LL128, Simple
};

// One measured call.
struct CollectiveRow {
  std::string ref;        // "file#results[i]" (report)
  std::string instance;   // context.instance, if given
  std::string placement;  // nccl-tests out-of-place / in-place, if given
  double bytes = 0, time_us = 0;
  double print_unit_rel = 0;  // the printed value's resolution relative to it (row noise)
};

struct CollectiveCurveFit {
  CollectiveCurve curve;
  Json report;
};

// Fits one curve (rows of one op and shape); InputError when the rows have fewer than two sizes.
CollectiveCurveFit fit_collective_curve(const std::string& op, int ranks, int nodes,
                                        const std::vector<CollectiveRow>& rows, int max_regimes);

CollectiveProfile fit_collective_profile(const CollectiveFitOptions& opt);

}  // namespace pdsim

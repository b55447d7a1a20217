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
// and the split with the lowest BIC wins. Uncertainty: each regime's standard errors and RMS
// relative error, each row's busbw error, and every candidate split with its BIC.
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

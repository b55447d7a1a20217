#pragma once
// A hand-made collective profile for unit tests: one all_reduce curve over 16 ranks on 2 nodes,
// measured 8 KiB..8 GiB, with the regimes given (numbers chosen for hand arithmetic, not taken
// from any measurement).
#include <vector>

#include "sim/fabric/collective_profile.hpp"

namespace pdsim::testing {

inline CollectiveProfile all_reduce_16x2(std::vector<CollectiveRegime> regimes) {
  CollectiveProfile p;
  p.name = "t";
  CollectiveCurve c;
  c.op = "all_reduce";
  c.ranks = 16;
  c.nodes = 2;
  c.min_bytes = 8192;
  c.max_bytes = 8589934592.0;
  c.regimes = std::move(regimes);
  p.curves = {c};
  return p;
}

}  // namespace pdsim::testing

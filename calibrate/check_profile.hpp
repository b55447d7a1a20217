#pragma once
// `pdsim calibrate check`: predicts every row of the given measurement files that the profile
// can predict (low-latency all-to-all phases, ping-pong latency, KV write rates) and reports
// the error, marking rows whose file was used to fit the profile.
#include <string>
#include <vector>

#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

struct CheckRow {
  std::string file, what;
  size_t row = 0;
  double measured = 0, predicted = 0;
  std::string unit;
  bool used_in_fit = false;
  double error_pct() const { return 100.0 * (predicted - measured) / measured; }
};

std::vector<CheckRow> check_profile(const FabricProfile& p, const std::vector<std::string>& files,
                                    int samples, uint64_t seed);
std::string format_check(const std::vector<CheckRow>& rows);

}  // namespace pdsim

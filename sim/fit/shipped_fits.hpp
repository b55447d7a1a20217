#pragma once
// What the shipped calibration (calibrate/overlays/*.json, the overlays `pdsim list` prints) fitted
// for one profile field: a prediction that holds an all-to-all parameter at its profile's value
// (envelope.hpp, HeldParameter) says when a fit on other runs chose a value for the same field of
// the same profile, so a user sees that one thing (a fabric × library) has been measured with
// another value than the one this prediction runs. Read from each overlay's fit.parameters (value,
// standard error, the profile it was fitted on), in file-name order; nothing is applied.
#include <optional>
#include <string>
#include <vector>

namespace pdsim {

struct ShippedFit {
  std::string overlay;  // its name
  double value = 0;
  std::optional<double> std_error;
};

// `path`: the field as --fit names it ("fabric.a2a.cpu-proxy.fixed_us"); `profile`: "KIND:NAME"
// as fit.parameters records it ("fabric:efa-p5en").
std::vector<ShippedFit> shipped_fits(const std::string& path, const std::string& profile);

}  // namespace pdsim

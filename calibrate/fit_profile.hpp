#pragma once
// `pdsim calibrate fit`: measurement files → fabric profile. Primary files determine the
// profile's values; alternate files are fitted the same way on their own and kept in
// fit.alternates with a disagreement note, so conflicting published sources stay visible.
#include <map>
#include <string>
#include <vector>

#include "calibrate/fit_a2a.hpp"
#include "sim/fabric/fabric_profile.hpp"

namespace pdsim {

struct ProfileFitOptions {
  std::string name, transport, instance;
  std::vector<std::string> files, alternates;
  A2AFitOptions a2a;
  std::map<std::string, std::map<std::string, double>> fixed;  // backend → param → value
};

FabricProfile fit_fabric_profile(const ProfileFitOptions& opt);
// One line per all-to-all parameter the fit's rows did not identify (its report's "identified":
// false: held at its lower bound because no row's slowest path depends on it), saying so and what
// to do; `pdsim calibrate fit` prints them as warnings. Empty when every fitted one is identified.
std::vector<std::string> unidentified_parameters(const FabricProfile& p);

// A path as recorded in provenance: relative to data_root() when under it (so regenerating the
// profile elsewhere gives the same bytes), else as given.
std::string provenance_path(const std::string& path);

// A fitted or published number in a profile's notes and messages: "%.4g".
std::string fmt_g4(double v);

}  // namespace pdsim

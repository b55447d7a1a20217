#pragma once
// A parameter of `pdsim calibrate serving --fit PATH=LO:HI`: a number field of one of the profiles
// the runs use, addressed as <kind>.<field path>, e.g.
//   fabric.a2a.cpu-proxy.fixed_us            fabric profile (fabric-specific)
//   serving.decode.host_us_per_iteration     serving-stack profile (fabric-independent)
//   acceptance.datasets.random.accept_prob   acceptance profile (fabric-independent)
//   gpu.kernel_launch_us                     GPU profile (fabric-independent)
//   collective.serving_call_us               collective profile (one library stack on one fabric)
// The fitted values go into an overlay section for that kind, bound to the profile's name.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/serve/cost/deployment.hpp"
#include "sim/serve/cost/profile_overlay.hpp"

namespace pdsim {

struct FitParameter {
  std::string path;                // as given: "<kind>.<field>..."
  std::string kind;                // fabric | gpu | serving | acceptance | collective
  std::vector<std::string> field;  // keys inside the profile document
  double lo = 0, hi = 0;
  std::string profile;  // the profile name the runs use for `kind`
  double start = 0;     // its value there (the fit starts from it, clipped into [lo, hi])
  size_t run = 0;       // the first run that uses the profile
  bool fabric_specific() const { return kind == "fabric" || kind == "collective"; }
};

// "PATH=LO:HI"; InputError (field "--fit") for a malformed spec, an unknown kind, LO >= HI.
FitParameter parse_fit_parameter(const std::string& spec);
// Binds `p` to the profile the deployments use (every one must use the same profile of that kind
// and have the field as a number). `where` names the runs for messages.
void bind_fit_parameter(FitParameter& p, const std::vector<const Deployment*>& deployments,
                        const std::vector<std::string>& where);
// An overlay setting each parameter to theta[i] (sections per kind), with `provenance` and `fit`.
ProfileOverlay make_overlay(const std::vector<FitParameter>& params,
                            const std::vector<double>& theta, const std::string& name,
                            const Json& provenance, const Json& fit);

}  // namespace pdsim

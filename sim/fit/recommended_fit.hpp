#pragma once
// The parameters `pdsim calibrate serving --init` writes into a new validation set's "fit" list
// when no --fit is given: the shipped fit of the reference deployment, the one behind
// calibrate/overlays/glm51-2p2d-p5en-20260430.json (its provenance.command; calibrate/README.md,
// "The shipped fit" explains each parameter and its range): the all-to-all CPU proxy's fixed and
// per-extra-NIC cost, the host work per decode iteration and per prefill chunk, EAGLE's
// acceptance on random text. Runs that cannot move one of them (no EAGLE run, no change of NICs)
// make `calibrate serving` name it; edit the list in the set then.
#include <string>
#include <vector>

namespace pdsim {

inline const std::vector<std::string>& recommended_serving_fit() {
  static const std::vector<std::string> fit = {
      "fabric.a2a.cpu-proxy.fixed_us=0:500",
      "fabric.a2a.cpu-proxy.extra_nic_us=0:500",
      "serving.decode.host_us_per_iteration=0:30000",
      "acceptance.datasets.random.accept_prob=0.3:0.95",
      "serving.prefill.host_us_per_chunk=0:1000000",
  };
  return fit;
}

}  // namespace pdsim

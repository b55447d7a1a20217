#include "sim/serve/policies/admission_policy.hpp"

#include "sim/core/config_sections.hpp"

namespace pdsim {

const char* admission_policy_name(bool batch_jumps) {
  return batch_jumps ? "all-arrived" : "one-per-rank";
}

}  // namespace pdsim

// The scenario switch that picks the admission policy.
PDSIM_CONFIG_LEAF("tail", "batch_jumps", bool, true,
                  pdsim::FieldSpec{.help = "every request whose KV arrived joins at the next "
                                           "iteration (all-arrived); off: one per DP rank per "
                                           "iteration (one-per-rank)"})

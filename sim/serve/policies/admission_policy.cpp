#include "sim/serve/policies/admission_policy.hpp"

namespace pdsim {

const char* admission_policy_name(bool batch_jumps) {
  return batch_jumps ? "all-arrived" : "one-per-rank";
}

}  // namespace pdsim

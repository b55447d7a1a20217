#pragma once
// Admission at a decode iteration boundary, a registered family (`pdsim list`): which requests
// whose KV cache has arrived join the running batch now. The scenario's `tail.batch_jumps`
// chooses it (true: `all-arrived`, false: `one-per-rank`). KV slots were already reserved at
// bootstrap (kv_reservation.hpp), so admission never fails for memory.
#include <vector>

#include "sim/core/registry.hpp"
#include "sim/serve/entities/request.hpp"

namespace pdsim {

class AdmissionPolicy {
 public:
  virtual ~AdmissionPolicy() = default;
  // Removes from `arrived` (in arrival order) the requests that join now and returns them in
  // that order; those left wait, in order, for the next boundary.
  virtual std::vector<int> admit(std::vector<int>& arrived,
                                 const std::vector<Request>& requests) = 0;
};

using AdmissionPolicyRegistry =
    Registry<"decode.admission", AdmissionPolicy, int>;  // ranks per decode instance

// The policy the scenario selects.
const char* admission_policy_name(bool batch_jumps);

}  // namespace pdsim

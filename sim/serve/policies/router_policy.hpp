#pragma once
// `router.policy`, a registered family (`pdsim list`): where the router (mini-lb / SGLang's DP
// controller) sends each request as it arrives — a prefill instance, a decode instance and a DP
// rank of it.
#include "sim/core/registry.hpp"
#include "sim/serve/entities/request.hpp"

namespace pdsim {

struct Route {
  int prefill_instance = 0, decode_instance = 0, decode_rank = 0;
};

struct RouterShape {                                                  // what a policy routes over
  int prefill_instances = 1, decode_instances = 1, decode_ranks = 1;  // ranks per decode instance
};

class RouterPolicy {
 public:
  virtual ~RouterPolicy() = default;
  virtual Route route(const Request& r) = 0;  // called in arrival order
};

using RouterPolicyRegistry = Registry<"router.policy", RouterPolicy, const RouterShape&>;

}  // namespace pdsim

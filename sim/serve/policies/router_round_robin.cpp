// Router policy `round-robin`: prefill instances in turn, and (decode instance, DP rank) pairs in
// turn — SGLang's DP-controller default. mini-lb's random pair choice is not modelled.
#include "sim/serve/policies/router_policy.hpp"

namespace pdsim {
namespace {

class RoundRobinRouter final : public RouterPolicy {
 public:
  explicit RoundRobinRouter(const RouterShape& s) : s_(s) {}
  Route route(const Request&) override {
    const long g = next_decode_++ % (static_cast<long>(s_.decode_instances) * s_.decode_ranks);
    Route r;
    r.prefill_instance = static_cast<int>(next_prefill_++ % s_.prefill_instances);
    r.decode_instance = static_cast<int>(g / s_.decode_ranks);
    r.decode_rank = static_cast<int>(g % s_.decode_ranks);
    return r;
  }

 private:
  RouterShape s_;
  long next_prefill_ = 0, next_decode_ = 0;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::RouterPolicyRegistry, "round-robin",
               "prefill instances in turn; (decode instance, DP rank) pairs in turn",
               [](const pdsim::RouterShape& s) {
                 return std::make_unique<pdsim::RoundRobinRouter>(s);
               })

// Router policy `bootstrap-room`: prefill and decode instances in turn, and the decode DP rank
// SGLang's decode DP controller picks in PD mode: bootstrap_room % dp_size
// (managers/data_parallel_controller.py, follow_bootstrap_room), the room the router's random
// 64-bit number — the same room that picks the prefill's DP rank. Ranks fill unevenly: with
// DP attention the busiest rank sets every decode step. Not the default: the shipped overlay
// was fitted under `round-robin`, and nothing measured yet tells the two apart.
#include "sim/serve/policies/router_policy.hpp"

namespace pdsim {
namespace {

class BootstrapRoomRouter final : public RouterPolicy {
 public:
  explicit BootstrapRoomRouter(const RouterShape& s) : s_(s) {}
  Route route(const Request& q) override {
    Route r;
    r.prefill_instance = static_cast<int>(next_prefill_++ % s_.prefill_instances);
    r.decode_instance = static_cast<int>(next_decode_++ % s_.decode_instances);
    r.decode_rank = static_cast<int>(q.bootstrap_room % static_cast<uint64_t>(s_.decode_ranks));
    return r;
  }

 private:
  RouterShape s_;
  long next_prefill_ = 0, next_decode_ = 0;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(pdsim::RouterPolicyRegistry, "bootstrap-room",
               "instances in turn; the decode DP rank bootstrap_room % dp as SGLang's PD mode "
               "picks it (uneven ranks)",
               [](const pdsim::RouterShape& s) {
                 return std::make_unique<pdsim::BootstrapRoomRouter>(s);
               })

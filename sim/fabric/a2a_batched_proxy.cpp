// batched-proxy: pplx-garden-like all-to-all. Dispatch first exchanges per-expert token counts
// with every peer (one round trip through the proxy), then sends one RDMA write per peer
// carrying all of that peer's tokens; combine reuses the counts. Intra-node peers use NVLink.
// With a handful of large writes per rank the per-write post cost is hidden by the wire time,
// so it is not a parameter.
//   fixed:    latency_us         (kernel, completion signalling)
//             count_exchange_us  (dispatch only, ranks with RDMA peers)
//   branches: wire_us   = remote bytes sent (or received) / (NIC rate × framing eff.) ×
//   wire_time_factor
//             nvlink_us = NVLink bytes / nvlink_GBps (send or receive side)
#include <utility>

#include "sim/fabric/linear_a2a_backend.hpp"

namespace pdsim {
namespace {

class BatchedProxyBackend : public LinearA2ABackend {
  enum { kLatency, kCountExchange, kWire };  // parameter indices

 public:
  explicit BatchedProxyBackend(const FabricProfile& p)
      : LinearA2ABackend(p, "batched-proxy",
                         {{"latency_us", 0, true, 0},
                          {"count_exchange_us", 0, true, 0},
                          {"wire_time_factor", 1, true, 1}}) {}

 protected:
  RankTerms rank_terms(const A2AConfig& c, const RankLoad& l, A2APhase ph) const override {
    RankTerms t;
    LinearTerm lat = term("latency_us");
    lat.coef[kLatency] = 1;
    LinearTerm counts = term("count_exchange_us");
    if (ph == A2APhase::dispatch && (l.remote_send_peers > 0 || l.remote_recv_peers > 0))
      counts.coef[kCountExchange] = 1;
    t.fixed.push_back(std::move(lat));
    t.fixed.push_back(std::move(counts));
    add_wire_and_nvlink_branches(t, c, l, kWire);
    return t;
  }
};

}  // namespace

PDSIM_REGISTER(A2ABackendRegistry, "batched-proxy",
               "Batched RDMA (pplx-garden): count exchange round trip, then one write per peer",
               [](const FabricProfile& p) -> std::unique_ptr<A2ABackend> {
                 return std::make_unique<BatchedProxyBackend>(p);
               })

}  // namespace pdsim

// ibgda: DeepEP-like low-latency all-to-all with GPU-initiated RDMA (IBGDA). GPU warps build each
// work request and ring the NIC doorbell themselves, one RDMA write per (token, expert) copy; no
// CPU is involved. Intra-node copies are NVLink stores by the same kernel when
// `intranode_nvlink` is true (DeepEP since June 2025), RDMA loop-back otherwise.
//   fixed:    latency_us = {dispatch,combine}_latency_us (launch, completion flags, one RTT)
//   branches: issue_us  = remote messages sent × issue_us_per_msg
//             wire_us   = remote bytes sent (or received) / (NIC rate × framing eff.) ×
//             wire_time_factor nvlink_us = NVLink copies sent × nvlink_us_per_msg + NVLink bytes /
//             nvlink_GBps
//                         (receive side: bytes only — the sender's stores land in its buffer)
#include <utility>

#include "sim/fabric/linear_a2a_backend.hpp"

namespace pdsim {
namespace {

class IbgdaBackend : public LinearA2ABackend {
  enum { kDispatchLat, kCombineLat, kIssue, kNvlinkMsg, kWire };  // parameter indices

 public:
  explicit IbgdaBackend(const FabricProfile& p)
      : LinearA2ABackend(p, "ibgda",
                         {{"dispatch_latency_us", 0, true, 0},
                          {"combine_latency_us", 0, true, 0},
                          {"issue_us_per_msg", 0, true, 0},
                          {"nvlink_us_per_msg", 0, true, 0},
                          {"wire_time_factor", 1, true, 1}}) {}

 protected:
  RankTerms rank_terms(const A2AConfig& c, const RankLoad& l, A2APhase ph) const override {
    RankTerms t;
    LinearTerm lat = term("latency_us");
    lat.coef[ph == A2APhase::dispatch ? kDispatchLat : kCombineLat] = 1;
    t.fixed.push_back(std::move(lat));
    LinearTerm issue = term("issue_us");
    issue.coef[kIssue] = l.remote_send_msgs;
    const double rate = rdma_bytes_per_us(c);
    LinearTerm wire_send = term("wire_us"), wire_recv = term("wire_us");
    wire_send.coef[kWire] = l.remote_send_bytes / rate;
    wire_recv.coef[kWire] = l.remote_recv_bytes / rate;
    const double nvl = nvlink_bytes_per_us();
    LinearTerm nvl_send = term("nvlink_us", l.nvlink_send_bytes / nvl);
    nvl_send.coef[kNvlinkMsg] = l.nvlink_send_msgs;
    LinearTerm nvl_recv = term("nvlink_us", l.nvlink_recv_bytes / nvl);
    t.branches.push_back(std::move(issue));
    t.branches.push_back(std::move(wire_send));
    t.branches.push_back(std::move(wire_recv));
    t.branches.push_back(std::move(nvl_send));
    t.branches.push_back(std::move(nvl_recv));
    return t;
  }
};

}  // namespace

PDSIM_REGISTER(A2ABackendRegistry, "ibgda",
               "GPU-initiated RDMA (DeepEP IBGDA): per-message warp issue, NIC wire, NVLink "
               "intra-node, no CPU",
               [](const FabricProfile& p) -> std::unique_ptr<A2ABackend> {
                 return std::make_unique<IbgdaBackend>(p);
               })

}  // namespace pdsim

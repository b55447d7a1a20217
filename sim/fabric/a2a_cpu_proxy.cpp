// cpu-proxy: UCCL-EP-like low-latency all-to-all for NICs the GPU cannot drive (EFA). GPU threads
// write one 128-bit command per remote (token, expert) copy into a FIFO in host memory;
// `proxy_threads` CPU threads per GPU poll their FIFOs and post one RDMA write per command.
// Intra-node copies are NVLink stores by the GPU.
//
// From UCCL-EP's source (uccl-project/uccl ep/, commit da914a2, internode_ll.cu, proxy.cpp):
// EFA has no RDMA atomics, so every count or flag is a zero-byte write-with-immediate that goes
// through the proxy like a token copy. Dispatch sends one count per destination expert, also when
// the count is 0: a rank signals every expert on other nodes. Combine sends one flag per (local
// expert, destination rank): experts per rank × ranks on other nodes. These signals are the
// proxy's whole load at 1-8 tokens per rank, a fixed cost per phase that the per-message cost
// alone does not give.
// NICs: the 4 proxy threads of a GPU each use one NIC (kNumProxyThs = 4; with two NICs per GPU,
// threads 0/2 on one and 1/3 on the other, rdma.cpp per_thread_rdma_init), each with its own CQ
// and QPs; experts map to threads, not striped over NICs. The code shows no per-NIC message, so
// what a second NIC costs is not derived here: `extra_nic_us` (held, default 0: no published
// figure) is a per-phase cost per extra NIC a GPU's proxy threads drive, fitted to serving runs
// that differ only in NIC count (UCCL_IB_HCA).
//   fixed:    latency_us       (kernel, completion signalling, network round trip)
//             fifo_latency_us  (command visible to the proxy; published FIFO path cost)
//             nic_us = extra_nic_us × (NICs per GPU − 1)
//   branches: proxy_us  = (remote messages + signals) / proxy_threads ×
//                         (post_us_per_msg + fifo_us_per_msg)
//             wire_us   = remote bytes sent (or received) / (NIC rate × framing eff.) ×
//             wire_time_factor nvlink_us = NVLink bytes / nvlink_GBps (send or receive side)
#include <algorithm>
#include <utility>

#include "sim/fabric/linear_a2a_backend.hpp"
#include "sim/fabric/rank_load.hpp"

namespace pdsim {
namespace {

class CpuProxyBackend : public LinearA2ABackend {
  enum { kLatency, kPost, kWire, kNic };  // parameter indices

 public:
  explicit CpuProxyBackend(const FabricProfile& p)
      : LinearA2ABackend(p, "cpu-proxy",
                         {{"latency_us", 0, true, 0},
                          {"post_us_per_msg", 0, true, 0},
                          {"wire_time_factor", 1, false, 1},
                          {"extra_nic_us", 0, false, 0}}) {
    threads_ = static_cast<double>(block().at("proxy_threads").positive_integer());
    fifo_latency_us_ = block().at("fifo_latency_us").non_negative();
    fifo_us_per_msg_ = block().at("fifo_us_per_msg").non_negative();
  }

 protected:
  RankTerms rank_terms(const A2AConfig& c, const RankLoad& l, A2APhase) const override {
    RankTerms t;
    LinearTerm lat = term("latency_us");
    lat.coef[kLatency] = 1;
    LinearTerm nic = term("nic_us");
    nic.coef[kNic] = std::max(0.0, c.nics_per_gpu - 1.0);
    t.fixed.push_back(std::move(lat));
    t.fixed.push_back(term("fifo_latency_us", fifo_latency_us_));
    t.fixed.push_back(std::move(nic));
    const double msgs = l.remote_send_msgs + ll_remote_signals(c);
    LinearTerm proxy = term("proxy_us", msgs * fifo_us_per_msg_ / threads_);
    proxy.coef[kPost] = msgs / threads_;
    t.branches.push_back(std::move(proxy));
    add_wire_and_nvlink_branches(t, c, l, kWire);
    return t;
  }

 private:
  double threads_ = 1, fifo_latency_us_ = 0, fifo_us_per_msg_ = 0;
};

}  // namespace

PDSIM_REGISTER(A2ABackendRegistry, "cpu-proxy",
               "CPU-proxy RDMA (UCCL-EP): GPU writes FIFO commands, proxy threads post one write "
               "per token copy",
               [](const FabricProfile& p) -> std::unique_ptr<A2ABackend> {
                 return std::make_unique<CpuProxyBackend>(p);
               })

}  // namespace pdsim

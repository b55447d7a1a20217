// cpu-proxy: UCCL-EP-like low-latency all-to-all for NICs the GPU cannot drive (EFA). GPU threads
// write one 128-bit command per remote (token, expert) copy into a FIFO in host memory;
// `proxy_threads` CPU threads per GPU poll their FIFOs and post one RDMA write per command.
// Intra-node copies are NVLink stores by the GPU.
//   fixed:    latency_us       (kernel, completion signalling, network round trip)
//             fifo_latency_us  (command visible to the proxy; published FIFO path cost)
//   branches: proxy_us  = remote messages / proxy_threads × (post_us_per_msg + fifo_us_per_msg)
//             wire_us   = remote bytes sent (or received) / (NIC rate × framing eff.) ×
//             wire_time_factor nvlink_us = NVLink bytes / nvlink_GBps (send or receive side)
#include <utility>

#include "sim/fabric/linear_a2a_backend.hpp"

namespace pdsim {
namespace {

enum { kLatency, kPost, kWire };

class CpuProxyBackend : public LinearA2ABackend {
 public:
  explicit CpuProxyBackend(const FabricProfile& p)
      : LinearA2ABackend(p, "cpu-proxy",
                         {{"latency_us", 0, true, 0},
                          {"post_us_per_msg", 0, true, 0},
                          {"wire_time_factor", 1, false, 1}}) {
    threads_ = static_cast<double>(block().at("proxy_threads").positive_integer());
    fifo_latency_us_ = block().at("fifo_latency_us").non_negative();
    fifo_us_per_msg_ = block().at("fifo_us_per_msg").non_negative();
  }

 protected:
  RankTerms rank_terms(const A2AConfig& c, const RankLoad& l, A2APhase) const override {
    RankTerms t;
    LinearTerm lat = term("latency_us");
    lat.coef[kLatency] = 1;
    // Moved in, not copied from an initializer list: this runs per rank and routing sample.
    t.fixed.reserve(2);
    t.fixed.push_back(std::move(lat));
    t.fixed.push_back(term("fifo_latency_us", fifo_latency_us_));
    LinearTerm proxy = term("proxy_us", l.remote_send_msgs * fifo_us_per_msg_ / threads_);
    proxy.coef[kPost] = l.remote_send_msgs / threads_;
    const double rate = rdma_bytes_per_us(c);
    LinearTerm wire_send = term("wire_us"), wire_recv = term("wire_us");
    wire_send.coef[kWire] = l.remote_send_bytes / rate;
    wire_recv.coef[kWire] = l.remote_recv_bytes / rate;
    const double nvl = nvlink_bytes_per_us();
    t.branches.reserve(5);
    t.branches.push_back(std::move(proxy));
    t.branches.push_back(std::move(wire_send));
    t.branches.push_back(std::move(wire_recv));
    t.branches.push_back(term("nvlink_us", l.nvlink_send_bytes / nvl));
    t.branches.push_back(term("nvlink_us", l.nvlink_recv_bytes / nvl));
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

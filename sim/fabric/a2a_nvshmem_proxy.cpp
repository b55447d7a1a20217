// nvshmem-proxy: DeepEP's low-latency kernels over NVSHMEM's libfabric transport on EFA (the
// AWS builds: NVSHMEM_REMOTE_TRANSPORT=libfabric, IBGDA off). EFA cannot be driven from the GPU,
// so every inter-node operation the kernels issue becomes a request in NVSHMEM's proxy channel,
// and one host thread per process posts them one by one. Intra-node copies are NVLink stores
// (NVSHMEM P2P).
//
// From the source (NVIDIA/nvshmem devel 2d7d25f; DeepEP 567632d internode_ll.cu with the
// awsome-distributed-ai EFA patch; `proxy_config` in
// calibrate/published/nvshmem-libfabric-source.json):
//  - one proxy thread and one channel per PE (src/host/proxy/proxy.cpp: one pthread_create;
//    proxy_host.h CHANNEL_COUNT 1): `proxy_threads` = 1;
//  - a put is one fi_write (libfabric.cpp), one per (token, expert) copy as in DeepEP's kernels;
//  - EFA has no RDMA atomics: NVSHMEM "stages" them (use_staged_atomics): the source proxy sends
//    the request (fi_send), the target's proxy applies it with a CPU read-modify-write through
//    GDRCopy and acknowledges with a zero-byte write. Each count/flag signal (ll_remote_signals)
//    therefore costs its sender's proxy one operation and, by symmetry, the same proxy one more
//    for the signal it receives: `proxy_ops_per_signal` = 2.
//   fixed:    latency_us       (kernel, the last signal's network round trip)
//   branches: proxy_us  = (remote puts + proxy_ops_per_signal × signals) / proxy_threads ×
//                         post_us_per_msg
//             wire_us   = remote bytes sent (or received) / (NIC rate × framing eff.) ×
//                         wire_time_factor
//             nvlink_us = NVLink bytes / nvlink_GBps (send or receive side)
// post_us_per_msg is the proxy's whole per-operation cost (channel read, fi_write or fi_send,
// completion polling), fitted to DeepEP's published low-latency microbenchmark on EFA.
#include <utility>

#include "sim/fabric/linear_a2a_backend.hpp"
#include "sim/fabric/rank_load.hpp"

namespace pdsim {
namespace {

class NvshmemProxyBackend : public LinearA2ABackend {
  enum { kLatency, kPost, kWire };  // parameter indices

 public:
  explicit NvshmemProxyBackend(const FabricProfile& p)
      : LinearA2ABackend(p, "nvshmem-proxy",
                         {{"latency_us", 0, true, 0},
                          {"post_us_per_msg", 0, true, 0},
                          {"wire_time_factor", 1, false, 1}}) {
    threads_ = static_cast<double>(block().at("proxy_threads").positive_integer());
    ops_per_signal_ = block().at("proxy_ops_per_signal").positive();
  }

 protected:
  RankTerms rank_terms(const A2AConfig& c, const RankLoad& l, A2APhase) const override {
    RankTerms t;
    LinearTerm lat = term("latency_us");
    lat.coef[kLatency] = 1;
    t.fixed.push_back(std::move(lat));
    const double ops = l.remote_send_msgs + ops_per_signal_ * ll_remote_signals(c);
    LinearTerm proxy = term("proxy_us");
    proxy.coef[kPost] = ops / threads_;
    t.branches.push_back(std::move(proxy));
    add_wire_and_nvlink_branches(t, c, l, kWire);
    return t;
  }

 private:
  double threads_ = 1, ops_per_signal_ = 2;
};

}  // namespace

PDSIM_REGISTER(A2ABackendRegistry, "nvshmem-proxy",
               "DeepEP over NVSHMEM's libfabric transport (EFA): one host proxy thread posts "
               "every put and stages every signal",
               [](const FabricProfile& p) -> std::unique_ptr<A2ABackend> {
                 return std::make_unique<NvshmemProxyBackend>(p);
               })

}  // namespace pdsim

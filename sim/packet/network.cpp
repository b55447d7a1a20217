#include "sim/packet/network.hpp"

#include <cmath>
#include <limits>

#include "sim/core/error.hpp"
#include "sim/packet/nvlink_stream.hpp"
#include "sim/packet/roce_rc.hpp"
#include "sim/packet/srd.hpp"
#include "sim/packet/topology_builders.hpp"

namespace pdsim::packet {

// Takes a link down at down_ps and up at up_ps, `repeats` times every period_ps.
class Network::FailureInjector : public EventHandler {
 public:
  FailureInjector(EventList& ev, Queue* q, const FailureSpec& s) : ev_(ev), q_(q), s_(s) {
    ev_.schedule(s.down_ps, this, 1);
  }
  void handle_event(int kind, Packet*) override {
    q_->set_failed(kind == 1);
    if (kind == 1 && s_.up_ps >= 0) {
      ev_.schedule_in(s_.up_ps - s_.down_ps, this, 0);
    } else if (kind == 0 && ++done_ < s_.repeats) {
      ev_.schedule_in(s_.period_ps - (s_.up_ps - s_.down_ps), this, 1);
    }
  }

 private:
  EventList& ev_;
  Queue* q_;
  FailureSpec s_;
  int done_ = 0;
};

Network::Network(const ExperimentConfig& cfg)
    : rng(Rng(cfg.seed).fork(1)),
      issue_rng(Rng(cfg.seed).fork(2)),
      workload_rng(Rng(cfg.seed).fork(3)),
      topo(QueueEnv{&events, &pool, &fabric_counters, &rng}),
      cfg_(cfg),
      tp_(cfg.tp),
      tenv_{&events, &pool, &topo, &tp_, &transport_counters} {
  check_gpus_and_nics(cfg_.topo, cfg_.file);  // a config built in C++ skipped the reader's check
  nodes_ = build_topology(cfg_.topo, &cfg_.sw, cfg_.file, topo);
  nic_eps_ = topo.endpoints();
  if (cfg_.topo.nvlink_GBps > 0) {
    // NVLink is credit-based and lossless: an NVSwitch never drops, it back-pressures.
    nvswitch_params_.buffer_bytes = std::numeric_limits<int64_t>::max() / 4;
    const LinkSpec nv{cfg_.topo.nvlink_GBps * 8, cfg_.topo.nvlink_latency_ps};
    for (int n = 0; n < nodes_; ++n) {
      const int sw = topo.add_switch(&nvswitch_params_, -1);
      for (int g = 0; g < cfg_.topo.gpus_per_node; ++g) topo.add_endpoint(sw, nv);
    }
  }
  nics_.reserve(static_cast<size_t>(topo.endpoints()));
  for (int e = 0; e < topo.endpoints(); ++e) {
    nics_.push_back(std::make_unique<Nic>(events, topo.uplink(e)));
    topo.set_sink(e, nics_.back().get());
  }
  topo.finalize();
  // Derived transport defaults (no published SRD values; see README): the unloaded RTT of the
  // longest path for an MTU packet out and a header-only ACK back.
  const Picoseconds one_way = topo.max_path_latency_ps(tp_.mtu_bytes + tp_.header_bytes);
  const Picoseconds ack_way = topo.max_path_latency_ps(tp_.header_bytes);
  base_rtt_ps_ = one_way + ack_way;
  if (cfg_.srd_rto_default) {
    // Largest RTT the fabric can produce without loss when queues are bounded (every hop's
    // queue full), else 4× the unloaded RTT.
    const int64_t hops = 2 * 3 + 2;  // upper bound on links per path in our topologies
    const Picoseconds drain =
        cfg_.sw.queue_limit_bytes > 0 && !cfg_.sw.pfc
            ? hops * serialisation_ps(cfg_.sw.queue_limit_bytes,
                                      std::llround(cfg_.topo.fabric_gbps * 1e9))
            : 3 * base_rtt_ps_;
    tp_.srd_rto_ps = base_rtt_ps_ + drain;
  }
  if (cfg_.srd_window_default) {
    // Two bandwidth-delay products of the host link at the unloaded RTT.
    const double bdp = cfg_.topo.host_gbps * 1e9 / 8 * ps_to_us(base_rtt_ps_) * 1e-6;
    tp_.srd_window_packets = std::max<int64_t>(
        1, static_cast<int64_t>(std::ceil(2 * bdp / static_cast<double>(tp_.mtu_bytes))));
  }
  if (cfg_.srd_penalty_default) tp_.srd_path_penalty_ps = base_rtt_ps_;
  tp_.srd_base_rtt_ps = base_rtt_ps_;
  // Queueing the delay target tolerates: one unloaded RTT, i.e. one host-link BDP, the excess
  // the 2-BDP window cap itself allows above a full pipe.
  if (cfg_.srd_allowance_default) tp_.srd_queue_allowance_ps = base_rtt_ps_;
  // Floor of the RTT-derived timeout: the delay target (base RTT + allowance), so an RTT the
  // congestion control itself tolerates never times out even when the RTT variance is tiny.
  if (cfg_.srd_min_rto_default) tp_.srd_min_rto_ps = base_rtt_ps_ + tp_.srd_queue_allowance_ps;
  for (const FailureSpec& f : cfg_.failures) {
    Queue* q = nullptr;
    if (f.endpoint >= 0) {
      if (f.endpoint >= nic_eps_) throw InputError(cfg_.file, "failures", "endpoint out of range");
      q = &topo.uplink(f.endpoint);
    } else {
      q = topo.switch_port(f.sw, f.port);
      if (!q)
        throw InputError(
            cfg_.file, "failures",
            "no port " + std::to_string(f.port) + " on switch " + std::to_string(f.sw));
    }
    failures_.push_back(std::make_unique<FailureInjector>(events, q, f));
  }
}

Network::~Network() = default;

int Network::gpu_endpoint(int node, int gpu) const {
  if (cfg_.topo.nvlink_GBps <= 0) return -1;
  return nic_eps_ + node * cfg_.topo.gpus_per_node + gpu;
}

Connection* Network::connect(int src_ep, int dst_ep) {
  const auto id = static_cast<uint64_t>(conns_.size());
  Nic* s = nics_[static_cast<size_t>(src_ep)].get();
  Nic* d = nics_[static_cast<size_t>(dst_ep)].get();
  // Entropy seeds mix the run seed in, so another seed draws other ECMP paths.
  const uint64_t key = id * 0x9e3779b97f4a7c15ULL ^ cfg_.seed;
  if (src_ep >= nic_eps_)
    conns_.push_back(std::make_unique<NvlinkStream>(tenv_, s, d, src_ep, dst_ep, key));
  else if (cfg_.transport == "srd")
    conns_.push_back(std::make_unique<SrdConnection>(tenv_, s, d, src_ep, dst_ep, key));
  else
    conns_.push_back(
        std::make_unique<RcConnection>(tenv_, s, d, src_ep, dst_ep, key, cfg_.topo.host_gbps));
  return conns_.back().get();
}

Picoseconds Network::issue_delay_ps() {
  if (!cfg_.issue_cpu_proxy) return 0;
  const DelayDistribution& d = cfg_.issue_delay;
  double us = d.a_us;
  if (d.dist == "exponential")
    us = issue_rng.exponential(1.0 / d.a_us);
  else if (d.dist == "uniform")
    us = issue_rng.uniform(d.a_us, d.b_us);
  else if (d.dist == "lognormal")
    us = d.a_us * std::exp(issue_rng.normal(0, d.b_us));
  return us_to_ps(us);
}

}  // namespace pdsim::packet

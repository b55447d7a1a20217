#include "sim/packet/experiment.hpp"

#include "sim/core/error.hpp"

namespace pdsim::packet {

SwitchParams default_switch() {
  SwitchParams p;
  p.buffer_bytes = static_cast<int64_t>(16e6);
  return p;
}

void enable_ecn(SwitchParams& p, const TopologyConfig& topo) {
  const double per_25g = topo.fabric_gbps / 25.0;
  p.ecn = true;
  p.ecn_kmin_bytes = static_cast<int64_t>(100e3 * per_25g);
  p.ecn_kmax_bytes = static_cast<int64_t>(400e3 * per_25g);
  p.ecn_pmax = 0.2;
}

void enable_pfc(SwitchParams& p, const TopologyConfig& topo) {
  p.pfc = true;
  // The dynamic threshold of alibaba-edu/High-Precision-Congestion-Control (switch-mmu.cc and
  // third.cc), the simulator our ECN defaults come from: paired with those ECN thresholds it
  // marks before it pauses (README, "ECN before PFC").
  p.pfc_alpha = 1.0 / 8;
  p.pfc_resume_offset_bytes = 3 * 1024;
  const double bdp_bytes = topo.fabric_gbps * 1e9 / 8 * 2 * ps_to_us(topo.hop_latency_ps) * 1e-6;
  p.pfc_headroom_bytes = static_cast<int64_t>(3.0 * bdp_bytes);
  p.pause_quanta = 65535;
}

TransportParams default_transport(const TopologyConfig& topo) {
  TransportParams p;
  const double per_25g = topo.host_gbps / 25.0;
  // CNP interval 50 µs, rate update 55 µs, AI 5 Mb/s and HAI 50 Mb/s per 25 Gb/s; the α update
  // period equals the rate update period (DCQCN paper).
  p.dcqcn_cnp_interval_ps = us_to_ps(50);
  p.dcqcn_rate_period_ps = p.dcqcn_alpha_period_ps = us_to_ps(55);
  p.dcqcn_ai_gbps = 0.005 * per_25g;
  p.dcqcn_hai_gbps = 0.05 * per_25g;
  return p;
}

void check_gpus_and_nics(const TopologyConfig& t, const std::string& file) {
  if (t.nics_per_node % t.gpus_per_node && t.gpus_per_node % t.nics_per_node)
    throw InputError(file, "topology.gpus_per_node",
                     "expected GPUs and NICs per node to divide one another");
}

WorkloadConfig& add_workload(ExperimentConfig& c, std::string kind, std::string name,
                             Picoseconds start_ps, std::any settings) {
  const std::string index = "[" + std::to_string(c.workloads.size()) + "]";
  WorkloadConfig w;
  w.name = name.empty() ? kind + index : std::move(name);
  w.kind = std::move(kind);
  w.path = "workloads" + index;
  w.start_ps = start_ps;
  w.settings = std::move(settings);
  c.workloads.push_back(std::move(w));
  return c.workloads.back();
}

}  // namespace pdsim::packet

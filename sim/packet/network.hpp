#pragma once
// Network: one simulated fabric — event list, packet pool, topology, NICs, the connections the
// workloads open, and the failure injections. Everything a run needs lives here (no globals).
#include <memory>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/packet/experiment.hpp"
#include "sim/packet/nic.hpp"
#include "sim/packet/topology.hpp"

namespace pdsim::packet {

class Network {
 public:
  explicit Network(const ExperimentConfig& cfg);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // Endpoints: NIC `nic` of node `node`; GPU `gpu`'s NVLink port (-1 without an NVSwitch).
  int nic_endpoint(int node, int nic) const { return node * cfg_.topo.nics_per_node + nic; }
  int gpu_endpoint(int node, int gpu) const;
  int nodes() const { return nodes_; }
  int nic_endpoints() const { return nodes_ * cfg_.topo.nics_per_node; }
  // A new connection (QP / SRD context / NVLink stream) between two endpoints.
  Connection* connect(int src_ep, int dst_ep);
  // Sender issue delay for one message (0 for GPU-initiated).
  Picoseconds issue_delay_ps();

  void run() { events.run(cfg_.max_time_ps); }

  const ExperimentConfig& config() const { return cfg_; }
  Picoseconds base_rtt_ps() const { return base_rtt_ps_; }
  // Transport parameters after the derived defaults (SRD timeouts from the base RTT).
  const TransportParams& transport_params() const { return tp_; }

  EventList events;
  PacketPool pool;
  FabricCounters fabric_counters;
  TransportCounters transport_counters;
  Rng rng;        // switch decisions (ECN marking)
  Rng issue_rng;  // sender issue delays
  Rng workload_rng;
  Topology topo;

 private:
  class FailureInjector;
  ExperimentConfig cfg_;
  SwitchParams nvswitch_params_;
  TransportParams tp_;
  TransportEnv tenv_;
  int nodes_ = 0;
  int nic_eps_ = 0;
  Picoseconds base_rtt_ps_ = 0;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<std::unique_ptr<Connection>> conns_;
  std::vector<std::unique_ptr<FailureInjector>> failures_;
};

}  // namespace pdsim::packet

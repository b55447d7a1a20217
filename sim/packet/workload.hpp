#pragma once
// Workload: traffic a run injects (flows, permutation, incast, MoE all-to-all phases, KV and PP
// transfers, ring collectives, background load). Each kind registers itself in
// WorkloadRegistry; it opens its own connections, posts messages and records, for every
// message, when it was posted and delivered, and for phase-structured kinds each phase's time.
// A kind gets its WorkloadConfig: the packet layer's own kinds read their fields from the JSON
// node of the experiment file (file_fields); a kind with a typed config (typed_settings) also
// takes it built in C++.
#include <any>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/json_reader.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/rng.hpp"
#include "sim/packet/network.hpp"

namespace pdsim::packet {

class Workload : public MessageListener, public EventHandler {
 public:
  struct Record {
    int src = 0, dst = 0;  // endpoints
    int64_t bytes = 0;
    Picoseconds posted_ps = 0, delivered_ps = -1;
  };
  Workload(const WorkloadConfig& w, Network& net);
  // Schedules the workload's first events (called once, before the run).
  virtual void start() = 0;
  void on_delivered(const Message& m, Picoseconds at) override;

  const std::string& name() const { return name_; }
  const std::string& kind() const { return kind_; }
  const std::vector<Record>& records() const { return records_; }
  const std::vector<double>& phase_us() const { return phase_us_; }

 protected:
  // Posts a message now (plus the sender's issue delay); returns its record index.
  int64_t post(int src_ep, int dst_ep, int64_t bytes);
  virtual void delivered(int64_t /*record*/, Picoseconds /*at*/) {}
  Connection* connection(int src_ep, int dst_ep);
  // Endpoint for NIC `nic_index` of GPU `gpu` on `node` (NICs split evenly among GPUs).
  int gpu_nic(int node, int gpu, int nic_index) const;
  int nics_per_gpu() const;
  // InputError naming this workload's `field` (its path in the experiment, file and all).
  [[noreturn]] void fail(std::string_view field, const std::string& expected) const;
  Picoseconds start_ps_ = 0;
  Network& net_;
  Rng rng_;
  std::vector<double> phase_us_;

 private:
  std::string name_, kind_, path_;
  std::vector<Record> records_;
  std::map<std::pair<int, int>, Connection*> conns_;
};

using WorkloadRegistry = Registry<"packet.workload", Workload, const WorkloadConfig&, Network&>;

// The JSON node of a workload read from an experiment file (the file edge); std::logic_error for
// one built in C++, which a kind without a typed config cannot take.
const JsonNode& file_fields(const WorkloadConfig& w);

// A kind's typed config: as built in C++, or read by `read` from the experiment file's node.
template <class Config, class Reader>
Config typed_settings(const WorkloadConfig& w, Reader read) {
  if (const auto* c = std::any_cast<Config>(&w.settings)) return *c;
  return read(file_fields(w));
}

// Factory of a kind that reads its fields from the experiment file: W(config, node, network).
template <class W>
std::unique_ptr<Workload> make_from_file(const WorkloadConfig& w, Network& net) {
  return std::make_unique<W>(w, file_fields(w), net);
}

// Builds every workload of the experiment (fields checked, InputError on a bad one).
std::vector<std::unique_ptr<Workload>> make_workloads(Network& net);

}  // namespace pdsim::packet

#include "sim/packet/workload.hpp"

#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/stable_hash.hpp"

namespace pdsim::packet {

Workload::Workload(const WorkloadConfig& w, Network& net)
    : start_ps_(w.start_ps),
      net_(net),
      rng_(net.workload_rng.fork(fnv1a_64(w.path))),
      name_(w.name),
      kind_(w.kind),
      path_(w.path) {}

void Workload::fail(std::string_view field, const std::string& expected) const {
  throw InputError(net_.config().file, path_ + "." + std::string(field), expected);
}

const JsonNode& file_fields(const WorkloadConfig& w) {
  if (const auto* n = std::any_cast<JsonNode>(&w.settings)) return *n;
  throw std::logic_error("packet workload " + w.path + " (" + w.kind +
                         ") reads its fields from an experiment file, and has none");
}

int64_t Workload::post(int src_ep, int dst_ep, int64_t bytes) {
  const Picoseconds now = net_.events.now();
  const auto idx = static_cast<int64_t>(records_.size());
  records_.push_back(Record{src_ep, dst_ep, bytes, now, -1});
  Message m;
  m.bytes = bytes;
  m.posted_ps = now;
  m.ready_ps = now + net_.issue_delay_ps();
  m.owner = this;
  m.tag = idx;
  connection(src_ep, dst_ep)->post(m);
  return idx;
}

void Workload::on_delivered(const Message& m, Picoseconds at) {
  records_[static_cast<size_t>(m.tag)].delivered_ps = at;
  delivered(m.tag, at);
}

Connection* Workload::connection(int src_ep, int dst_ep) {
  auto [it, fresh] = conns_.try_emplace({src_ep, dst_ep}, nullptr);
  if (fresh) it->second = net_.connect(src_ep, dst_ep);
  return it->second;
}

int Workload::nics_per_gpu() const {
  const auto& t = net_.config().topo;
  return t.nics_per_node >= t.gpus_per_node ? t.nics_per_node / t.gpus_per_node : 1;
}

int Workload::gpu_nic(int node, int gpu, int nic_index) const {
  const auto& t = net_.config().topo;
  if (t.nics_per_node >= t.gpus_per_node)
    return net_.nic_endpoint(node, gpu * nics_per_gpu() + nic_index % nics_per_gpu());
  return net_.nic_endpoint(node, gpu / (t.gpus_per_node / t.nics_per_node));
}

std::vector<std::unique_ptr<Workload>> make_workloads(Network& net) {
  std::vector<std::unique_ptr<Workload>> out;
  for (const WorkloadConfig& w : net.config().workloads)
    out.push_back(
        WorkloadRegistry::instance().create(w.kind, net.config().file, w.path + ".kind", w, net));
  return out;
}

}  // namespace pdsim::packet

#include "sim/packet/workload.hpp"

#include "sim/core/stable_hash.hpp"

namespace pdsim::packet {

Workload::Workload(const JsonNode& spec, Network& net, const std::string& kind)
    : net_(net), rng_(net.workload_rng.fork(fnv1a_64(spec.path()))), kind_(kind) {
  const size_t bracket = spec.path().find('[');
  name_ =
      spec.str_or("name", kind + (bracket == std::string::npos ? "" : spec.path().substr(bracket)));
  start_ps_ = us_to_ps(spec.has("start_us") ? spec.at("start_us").non_negative() : 0.0);
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
  for (const JsonNode& w : net.config().workloads) {
    const std::string kind = w.at("kind").string();
    out.push_back(WorkloadRegistry::instance().create(kind, w.file(), w.path() + ".kind", w, net));
  }
  return out;
}

}  // namespace pdsim::packet

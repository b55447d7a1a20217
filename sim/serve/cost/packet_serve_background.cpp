#include "sim/serve/cost/packet_serve_background.hpp"

#include <algorithm>
#include <utility>

#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

class ServeBackground : public Workload {
 public:
  ServeBackground(const WorkloadConfig& w, const ServeBackgroundConfig& c, Network& net)
      : Workload(w, net),
        src_(c.src_node),
        dst_(c.dst_node),
        first_nic_(c.first_nic),
        nics_(c.nics.value_or(net.config().topo.nics_per_node)),
        left_(c.bytes),
        block_(c.block_bytes) {
    // What a file's reader cannot know (the fabric) and what a config built in C++ skipped.
    if (src_ < 0 || src_ >= net.nodes() || dst_ < 0 || dst_ >= net.nodes() || src_ == dst_)
      fail("dst_node", "expected two distinct nodes in [0, " + std::to_string(net.nodes()) + ")");
    if (left_ < 1) fail("bytes", "expected a positive integer");
    if (block_ < 1) fail("block_bytes", "expected a positive integer");
    if (!(c.rate_gbps > 0)) fail("rate_gbps", "expected a positive number");
    const double rate_bps = c.rate_gbps * 1e9;
    interval_ps_ = std::max<Picoseconds>(
        1, static_cast<Picoseconds>(static_cast<double>(block_) * 8e12 / rate_bps));
    const int all = net.config().topo.nics_per_node;
    if (first_nic_ < 0 || nics_ < 1 || first_nic_ + nics_ > all)
      fail("nics", "expected first_nic + nics <= " + std::to_string(all));
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    const int64_t sz = std::min(left_, block_);
    const int n = first_nic_ + static_cast<int>(next_++ % nics_);
    post(net_.nic_endpoint(src_, n), net_.nic_endpoint(dst_, n), sz);
    left_ -= sz;
    if (left_ > 0) net_.events.schedule_in(interval_ps_, this);
  }

 private:
  int src_ = 0, dst_ = 0, first_nic_ = 0, nics_ = 1;
  int64_t left_ = 0, block_ = 0, next_ = 0;
  Picoseconds interval_ps_ = 1;
};

}  // namespace

ServeBackgroundConfig read_serve_background(const JsonNode& s) {
  s.expect_only({"kind", "name", "start_us", "src_node", "dst_node", "bytes", "rate_gbps",
                 "block_bytes", "first_nic", "nics"});
  ServeBackgroundConfig c;
  c.src_node = static_cast<int>(s.at("src_node").integer());
  c.dst_node = static_cast<int>(s.at("dst_node").integer());
  c.bytes = s.at("bytes").positive_integer();
  c.block_bytes = s.at("block_bytes").positive_integer();
  c.rate_gbps = s.at("rate_gbps").positive();
  c.first_nic = static_cast<int>(s.int_or("first_nic", 0));
  if (s.has("nics")) c.nics = static_cast<int>(s.at("nics").integer());
  return c;
}

WorkloadConfig& add_serve_background(ExperimentConfig& c, std::string name, Picoseconds start_ps,
                                     ServeBackgroundConfig flow) {
  return add_workload(c, "serve_background", std::move(name), start_ps, std::move(flow));
}

PDSIM_REGISTER(WorkloadRegistry, "serve_background",
               "paced transfer on a NIC subset (KV / PP in flight, serving packet fidelity)",
               [](const WorkloadConfig& w, Network& n) -> std::unique_ptr<Workload> {
                 return std::make_unique<ServeBackground>(
                     w, typed_settings<ServeBackgroundConfig>(w, read_serve_background), n);
               })

}  // namespace pdsim::packet

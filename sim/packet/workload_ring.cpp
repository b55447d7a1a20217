// NCCL-style ring collectives over the nodes' NICs: `nodes` nodes from first_node form a ring
// per channel (one channel per NIC used, NIC c of every node); each channel carries
// bytes / channels of the buffer in chunks of bytes / (channels · nodes). Reduce-scatter and
// all-gather take nodes − 1 steps, all-reduce 2 (nodes − 1); a node forwards step s + 1 once
// it has received step s from its predecessor. The collective's time is recorded as a phase.
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

class RingWorkload : public Workload {
 public:
  RingWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "op", "nodes", "first_node", "bytes", "channels"});
    const std::string op = s.at("op").string();
    n_ = static_cast<int>(s.has("nodes") ? s.at("nodes").positive_integer() : net.nodes());
    first_ = static_cast<int>(s.int_or("first_node", 0));
    if (n_ < 2 || first_ < 0 || first_ + n_ > net.nodes())
      s.at("nodes").fail("expected 2.." + std::to_string(net.nodes()) + " nodes from first_node");
    if (op == "all_reduce")
      steps_ = 2 * (n_ - 1);
    else if (op == "all_gather" || op == "reduce_scatter")
      steps_ = n_ - 1;
    else
      s.at("op").fail("expected all_reduce, all_gather or reduce_scatter");
    channels_ = static_cast<int>(s.int_or("channels", net.config().topo.nics_per_node));
    if (channels_ < 1 || channels_ > net.config().topo.nics_per_node)
      s.at("channels").fail("expected 1..nics_per_node");
    const int64_t bytes = s.at("bytes").positive_integer();
    chunk_ = std::max<int64_t>(1, bytes / (channels_ * n_));
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    t0_ = net_.events.now();
    left_ = static_cast<int64_t>(channels_) * n_ * steps_;
    for (int c = 0; c < channels_; ++c)
      for (int i = 0; i < n_; ++i) send(c, i, 0);
  }
  void delivered(int64_t rec, Picoseconds at) override {
    const Step st = steps_of_[static_cast<size_t>(rec)];
    if (st.step + 1 < steps_) send(st.channel, (st.node + 1) % n_, st.step + 1);
    if (--left_ == 0) phase_us_.push_back(ps_to_us(at - t0_));
  }

 private:
  struct Step {
    int channel, node, step;
  };
  void send(int c, int i, int step) {
    const int64_t rec =
        post(net_.nic_endpoint(first_ + i, c), net_.nic_endpoint(first_ + (i + 1) % n_, c), chunk_);
    steps_of_.resize(static_cast<size_t>(rec) + 1, Step{c, i, step});
  }
  int n_, first_, steps_ = 0, channels_;
  int64_t chunk_;
  int64_t left_ = 0;
  Picoseconds t0_ = 0;
  std::vector<Step> steps_of_;
};

}  // namespace

PDSIM_REGISTER(WorkloadRegistry, "ring", "ring all-reduce / all-gather / reduce-scatter",
               make_from_file<RingWorkload>)

}  // namespace pdsim::packet

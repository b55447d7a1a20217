// Point-to-point workload kinds: single flow, ping-pong latency probe, random permutation,
// N:1 incast and Poisson background flows.
#include <cmath>

#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

int endpoint_value(const JsonNode& n, const Network& net) {
  const int64_t e = n.integer();
  if (e < 0 || e >= net.nic_endpoints())
    n.fail("expected a NIC endpoint in [0, " + std::to_string(net.nic_endpoints()) + ")");
  return static_cast<int>(e);
}
int endpoint_field(const JsonNode& spec, std::string_view key, const Network& net) {
  return endpoint_value(spec.at(key), net);
}

// `count` messages of `bytes` from src to dst, all posted at start_us.
class FlowWorkload : public Workload {
 public:
  FlowWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "src", "dst", "bytes", "count"});
    src_ = endpoint_field(s, "src", net);
    dst_ = endpoint_field(s, "dst", net);
    bytes_ = s.at("bytes").positive_integer();
    count_ = s.has("count") ? s.at("count").positive_integer() : 1;
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    for (int64_t i = 0; i < count_; ++i) post(src_, dst_, bytes_);
  }

 private:
  int src_, dst_;
  int64_t bytes_, count_;
};

// One message at a time: the next is posted when the previous arrives (one-way latencies).
class PingPongWorkload : public Workload {
 public:
  PingPongWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "src", "dst", "bytes", "iterations"});
    src_ = endpoint_field(s, "src", net);
    dst_ = endpoint_field(s, "dst", net);
    bytes_ = s.at("bytes").positive_integer();
    left_ = s.at("iterations").positive_integer();
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    post(src_, dst_, bytes_);
    --left_;
  }
  void delivered(int64_t, Picoseconds) override {
    if (left_ > 0) handle_event(0, nullptr);
  }

 private:
  int src_, dst_;
  int64_t bytes_, left_;
};

// Every endpoint sends `bytes` to its image under a random cyclic permutation (Sattolo), so no
// endpoint sends to itself and every endpoint receives exactly one flow.
class PermutationWorkload : public Workload {
 public:
  PermutationWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "bytes", "endpoints"});
    bytes_ = s.at("bytes").positive_integer();
    n_ = s.has("endpoints") ? static_cast<int>(s.at("endpoints").positive_integer())
                            : net.nic_endpoints();
    if (n_ < 2 || n_ > net.nic_endpoints())
      s.at("endpoints").fail("expected 2.." + std::to_string(net.nic_endpoints()));
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    std::vector<int> perm(static_cast<size_t>(n_));
    for (int i = 0; i < n_; ++i) perm[static_cast<size_t>(i)] = i;
    for (int i = n_ - 1; i > 0; --i)
      std::swap(perm[static_cast<size_t>(i)],
                perm[static_cast<size_t>(rng_.uniform_int(0, i - 1))]);
    for (int i = 0; i < n_; ++i) post(i, perm[static_cast<size_t>(i)], bytes_);
  }

 private:
  int64_t bytes_;
  int n_;
};

// N senders (endpoints 1..N unless listed) each send `bytes` to one receiver at once.
class IncastWorkload : public Workload {
 public:
  IncastWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "senders", "dst", "bytes"});
    dst_ = s.has("dst") ? endpoint_field(s, "dst", net) : 0;
    bytes_ = s.at("bytes").positive_integer();
    const JsonNode sn = s.at("senders");
    if (sn.is_array()) {
      for (size_t i = 0; i < sn.size(); ++i) senders_.push_back(endpoint_value(sn.at(i), net));
    } else {
      const int64_t n = sn.positive_integer();
      for (int e = 0; static_cast<int64_t>(senders_.size()) < n && e < net.nic_endpoints(); ++e)
        if (e != dst_) senders_.push_back(e);
      if (static_cast<int64_t>(senders_.size()) < n)
        sn.fail("expected fewer senders than endpoints");
    }
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    for (int e : senders_) post(e, dst_, bytes_);
  }

 private:
  int dst_;
  int64_t bytes_;
  std::vector<int> senders_;
};

// Poisson arrivals of `bytes`-sized flows between uniformly drawn endpoint pairs, at a rate that
// offers `load` × the host link rate per endpoint on average, from start_us to until_us.
class BackgroundWorkload : public Workload {
 public:
  BackgroundWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "until_us", "load", "bytes"});
    bytes_ = s.at("bytes").positive_integer();
    const double load = s.at("load").fraction();
    until_ps_ = us_to_ps(s.at("until_us").positive());
    const double bytes_per_s = load * net.nic_endpoints() * net.config().topo.host_gbps * 1e9 / 8;
    rate_per_us_ = bytes_per_s / static_cast<double>(bytes_) * 1e-6;
    if (!(rate_per_us_ > 0)) s.at("load").fail("expected a positive load");
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    const int n = net_.nic_endpoints();
    const int src = static_cast<int>(rng_.uniform_int(0, n - 1));
    int dst = static_cast<int>(rng_.uniform_int(0, n - 2));
    if (dst >= src) ++dst;
    post(src, dst, bytes_);
    const Picoseconds next = net_.events.now() + us_to_ps(rng_.exponential(rate_per_us_));
    if (next < until_ps_) net_.events.schedule(next, this);
  }

 private:
  int64_t bytes_;
  Picoseconds until_ps_;
  double rate_per_us_;
};

}  // namespace

PDSIM_REGISTER(WorkloadRegistry, "flow", "count messages of bytes from src to dst",
               make_from_file<FlowWorkload>)
PDSIM_REGISTER(WorkloadRegistry, "pingpong", "one message in flight at a time",
               make_from_file<PingPongWorkload>)
PDSIM_REGISTER(WorkloadRegistry, "permutation", "random cyclic permutation of flows",
               make_from_file<PermutationWorkload>)
PDSIM_REGISTER(WorkloadRegistry, "incast", "N senders to one receiver",
               make_from_file<IncastWorkload>)
PDSIM_REGISTER(WorkloadRegistry, "background", "Poisson flows between random pairs",
               make_from_file<BackgroundWorkload>)

}  // namespace pdsim::packet

// Packet-engine workloads used by the serving simulation's packet fidelity
// (packet_phase_oracle.*). They differ from the generic `moe_a2a` / `kv_transfer` kinds in what
// the serving layer needs to condition on:
//   serve_a2a         DeepEP low-latency phases with a token count per rank (not one for all)
//                     and a NIC subset (the all-to-all's rails): NICs [first_nic, first_nic +
//                     nics) of each node, split evenly among its GPUs, same index at both ends.
//                     With `then_combine` (phase "dispatch"), each dispatch is followed, `gap_us`
//                     after it ends, by its combine: every (token, expert) copy sent back from the
//                     expert's rank to its source rank with combine-sized messages, i.e. one MoE
//                     layer's exchange on one background; phase times come as d0, c0, d1, c1, ….
//                     Optionally stops the run when its last phase ends (the background is
//                     endless by construction, so the run must end with the measurement).
//   serve_background  a transfer paced at the rate it achieves in the serving simulation (the
//                     KV engine's block rate, shared with other flows): one block every
//                     block_bytes / rate, round robin over NICs [first_nic, first_nic + nics),
//                     until `bytes` are posted. Models KV transfers and PP activation sends in
//                     flight during a decode all-to-all.
#include <algorithm>
#include <map>
#include <utility>

#include "sim/packet/moe_copy_bytes.hpp"
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

class ServeA2A : public Workload {
 public:
  ServeA2A(const JsonNode& s, Network& net) : Workload(s, net, "serve_a2a") {
    s.expect_only({"kind", "name", "start_us", "first_node", "tokens_per_rank", "num_experts",
                   "top_k", "hidden", "phase", "phases", "gap_us", "first_nic", "nics",
                   "stop_when_done", "then_combine"});
    for (int64_t t : s.at("tokens_per_rank").integers()) {
      if (t < 0) s.at("tokens_per_rank").fail("expected non-negative token counts");
      tokens_.push_back(static_cast<int>(t));
    }
    ranks_ = static_cast<int>(tokens_.size());
    first_node_ = static_cast<int>(s.int_or("first_node", 0));
    experts_ = static_cast<int>(s.at("num_experts").positive_integer());
    top_k_ = static_cast<int>(s.at("top_k").positive_integer());
    const int64_t bytes = moe_copy_bytes(s);
    const bool then_combine = s.bool_or("then_combine", false);
    if (then_combine && s.at("phase").string() != "dispatch")
      s.at("then_combine").fail("expected phase 'dispatch' with then_combine");
    const int phases = static_cast<int>(s.int_or("phases", 1));
    if (phases < 1) s.at("phases").fail("expected at least 1 phase");
    gap_ps_ = us_to_ps(s.num_or("gap_us", 0));
    stop_ = s.bool_or("stop_when_done", false);
    const auto& topo = net.config().topo;
    gpn_ = topo.gpus_per_node;
    first_nic_ = static_cast<int>(s.int_or("first_nic", 0));
    nics_ = static_cast<int>(s.int_or("nics", topo.nics_per_node));
    if (first_nic_ < 0 || nics_ < 1 || first_nic_ + nics_ > topo.nics_per_node)
      s.at("nics").fail("expected first_nic + nics <= " + std::to_string(topo.nics_per_node));
    if (ranks_ == 0 || experts_ % ranks_)
      s.at("num_experts").fail("expected a multiple of the EP ranks");
    if (top_k_ > experts_) s.at("top_k").fail("expected top_k <= num_experts");
    if (first_node_ < 0 || first_node_ + (ranks_ + gpn_ - 1) / gpn_ > net.nodes())
      s.at("tokens_per_rank").fail("expected the EP ranks to fit in the nodes from first_node on");
    // Draw every phase's routing now and open its connections in first-use order, before any
    // other workload posts. Each phase gets its own connections: connection ids seed the ECMP
    // entropy / SRD paths, so every phase samples another hash realisation, and the same a2a
    // gets the same routing and the same paths with and without a background. A combine uses
    // its dispatch's routing, reversed.
    const int per_rank = experts_ / ranks_;
    const int64_t combine_bytes = moe_copy_bytes(s.at("hidden"), A2APhase::combine);
    for (int p = 0; p < phases; ++p) {
      Step fwd{{}, bytes}, rev{{}, combine_bytes};
      std::map<std::pair<int, int>, Connection*> conns;
      std::vector<std::pair<int, int>> copies;
      for (int src = 0; src < ranks_; ++src) {
        int copy = 0;
        for (int t = 0; t < tokens_[static_cast<size_t>(src)]; ++t) {
          rng_.sample_distinct(experts_, top_k_, picks_);
          for (int e : picks_) {
            if (e / per_rank == src) continue;
            copies.push_back(endpoints(src, e / per_rank, copy++));
            Connection*& c = conns[copies.back()];
            if (!c) c = net_.connect(copies.back().first, copies.back().second);
            fwd.route.push_back(c);
          }
        }
      }
      steps_.push_back(std::move(fwd));
      if (!then_combine) continue;
      std::map<std::pair<int, int>, Connection*> back;
      for (const auto& [from, to] : copies) {
        Connection*& c = back[{to, from}];
        if (!c) c = net_.connect(to, from);
        rev.route.push_back(c);
      }
      steps_.push_back(std::move(rev));
    }
  }
  // Messages are posted on the phase's own connections, so they bypass Workload::post and its
  // per-message records (only phase times are needed).
  void on_delivered(const Message&, Picoseconds) override {
    if (--outstanding_ == 0) finish();
  }
  void start() override { net_.events.schedule(start_ps_, this); }

  void handle_event(int, Packet*) override {  // starts a phase with its own routing draw
    phase_start_ = net_.events.now();
    outstanding_ = 0;
    const Picoseconds now = net_.events.now();
    const Step& step = steps_[phase_us_.size()];
    for (Connection* c : step.route) {
      ++outstanding_;
      Message m;
      m.bytes = step.bytes;
      m.posted_ps = now;
      m.ready_ps = now + net_.issue_delay_ps();
      m.owner = this;
      c->post(m);
    }
    if (outstanding_ == 0) finish();
  }

 private:
  int nic(int node, int gpu, int copy) const {
    if (nics_ >= gpn_) {
      const int per_gpu = nics_ / gpn_;
      return net_.nic_endpoint(node, first_nic_ + gpu * per_gpu + copy % per_gpu);
    }
    return net_.nic_endpoint(node, first_nic_ + gpu * nics_ / gpn_);  // GPUs share a NIC
  }
  std::pair<int, int> endpoints(int src, int dst, int copy) const {
    const int sn = first_node_ + src / gpn_, dn = first_node_ + dst / gpn_;
    const int sg = src % gpn_, dg = dst % gpn_;
    if (sn == dn && net_.gpu_endpoint(sn, sg) >= 0)
      return {net_.gpu_endpoint(sn, sg), net_.gpu_endpoint(dn, dg)};
    return {nic(sn, sg, copy), nic(dn, dg, copy)};
  }
  void finish() {
    phase_us_.push_back(ps_to_us(net_.events.now() - phase_start_));
    if (phase_us_.size() < steps_.size())
      net_.events.schedule_in(gap_ps_, this);
    else if (stop_)
      net_.events.stop();
  }

  struct Step {  // one phase: the connection of every (token, expert) copy, and its size
    std::vector<Connection*> route;
    int64_t bytes = 0;
  };
  std::vector<int> tokens_, picks_;
  std::vector<Step> steps_;
  int ranks_ = 0, first_node_ = 0, experts_ = 0, top_k_ = 0, gpn_ = 1;
  int first_nic_ = 0, nics_ = 1;
  bool stop_ = false;
  int64_t outstanding_ = 0;
  Picoseconds gap_ps_ = 0, phase_start_ = 0;
};

class ServeBackground : public Workload {
 public:
  ServeBackground(const JsonNode& s, Network& net) : Workload(s, net, "serve_background") {
    s.expect_only({"kind", "name", "start_us", "src_node", "dst_node", "bytes", "rate_gbps",
                   "block_bytes", "first_nic", "nics"});
    src_ = static_cast<int>(s.at("src_node").integer());
    dst_ = static_cast<int>(s.at("dst_node").integer());
    if (src_ < 0 || src_ >= net.nodes() || dst_ < 0 || dst_ >= net.nodes() || src_ == dst_)
      s.at("dst_node")
          .fail("expected two distinct nodes in [0, " + std::to_string(net.nodes()) + ")");
    left_ = s.at("bytes").positive_integer();
    block_ = s.at("block_bytes").positive_integer();
    const double rate_bps = s.at("rate_gbps").positive() * 1e9;
    interval_ps_ = std::max<Picoseconds>(
        1, static_cast<Picoseconds>(static_cast<double>(block_) * 8e12 / rate_bps));
    const int all = net.config().topo.nics_per_node;
    first_nic_ = static_cast<int>(s.int_or("first_nic", 0));
    nics_ = static_cast<int>(s.int_or("nics", all));
    if (first_nic_ < 0 || nics_ < 1 || first_nic_ + nics_ > all)
      s.at("nics").fail("expected first_nic + nics <= " + std::to_string(all));
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

PDSIM_REGISTER(
    WorkloadRegistry, "serve_a2a",
    "decode all-to-all phases with tokens per rank and a NIC subset (serving packet fidelity)",
    [](const JsonNode& s, Network& n) -> std::unique_ptr<Workload> {
      return std::make_unique<ServeA2A>(s, n);
    })
PDSIM_REGISTER(WorkloadRegistry, "serve_background",
               "paced transfer on a NIC subset (KV / PP in flight, serving packet fidelity)",
               [](const JsonNode& s, Network& n) -> std::unique_ptr<Workload> {
                 return std::make_unique<ServeBackground>(s, n);
               })

}  // namespace pdsim::packet

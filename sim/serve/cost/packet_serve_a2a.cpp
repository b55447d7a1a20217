#include "sim/serve/cost/packet_serve_a2a.hpp"

#include <map>
#include <utility>

#include "sim/packet/moe_copy_bytes.hpp"
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

class ServeA2A : public Workload {
 public:
  ServeA2A(const WorkloadConfig& w, const ServeA2AConfig& c, Network& net)
      : Workload(w, net),
        tokens_(c.tokens_per_rank),
        ranks_(static_cast<int>(c.tokens_per_rank.size())),
        first_node_(c.first_node),
        experts_(c.num_experts),
        top_k_(c.top_k),
        gpn_(net.config().topo.gpus_per_node),
        first_nic_(c.first_nic),
        nics_(c.nics.value_or(net.config().topo.nics_per_node)),
        stop_(c.stop_when_done),
        gap_ps_(c.gap_ps) {
    check(c);
    // Draw every phase's routing now and open its connections in first-use order, before any
    // other workload posts. Each phase gets its own connections: connection ids seed the ECMP
    // entropy / SRD paths, so every phase samples another hash realisation, and the same a2a
    // gets the same routing and the same paths with and without a background. A combine uses
    // its dispatch's routing, reversed.
    const int per_rank = experts_ / ranks_;
    const int64_t bytes = moe_copy_bytes(c.hidden, c.phase);
    const int64_t combine_bytes = moe_copy_bytes(c.hidden, A2APhase::combine);
    for (int p = 0; p < c.phases; ++p) {
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
            Connection*& conn = conns[copies.back()];
            if (!conn) conn = net_.connect(copies.back().first, copies.back().second);
            fwd.route.push_back(conn);
          }
        }
      }
      steps_.push_back(std::move(fwd));
      if (!c.then_combine) continue;
      std::map<std::pair<int, int>, Connection*> back;
      for (const auto& [from, to] : copies) {
        Connection*& conn = back[{to, from}];
        if (!conn) conn = net_.connect(to, from);
        rev.route.push_back(conn);
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
  // What a file's reader cannot know (the fabric) and what a config built in C++ skipped.
  void check(const ServeA2AConfig& c) const {
    for (int t : tokens_)
      if (t < 0) fail("tokens_per_rank", "expected non-negative token counts");
    if (experts_ < 1) fail("num_experts", "expected a positive integer");
    if (top_k_ < 1) fail("top_k", "expected a positive integer");
    if (c.hidden < 1) fail("hidden", "expected a positive integer");
    if (c.then_combine && c.phase != A2APhase::dispatch)
      fail("then_combine", "expected phase 'dispatch' with then_combine");
    if (c.phases < 1) fail("phases", "expected at least 1 phase");
    const int all = net_.config().topo.nics_per_node;
    if (first_nic_ < 0 || nics_ < 1 || first_nic_ + nics_ > all)
      fail("nics", "expected first_nic + nics <= " + std::to_string(all));
    if (ranks_ == 0 || experts_ % ranks_)
      fail("num_experts", "expected a multiple of the EP ranks");
    if (top_k_ > experts_) fail("top_k", "expected top_k <= num_experts");
    if (first_node_ < 0 || first_node_ + (ranks_ + gpn_ - 1) / gpn_ > net_.nodes())
      fail("tokens_per_rank", "expected the EP ranks to fit in the nodes from first_node on");
  }
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

}  // namespace

ServeA2AConfig read_serve_a2a(const JsonNode& s) {
  s.expect_only({"kind", "name", "start_us", "first_node", "tokens_per_rank", "num_experts",
                 "top_k", "hidden", "phase", "phases", "gap_us", "first_nic", "nics",
                 "stop_when_done", "then_combine"});
  ServeA2AConfig c;
  for (int64_t t : s.at("tokens_per_rank").integers()) {
    if (t < 0) s.at("tokens_per_rank").fail("expected non-negative token counts");
    c.tokens_per_rank.push_back(static_cast<int>(t));
  }
  c.first_node = static_cast<int>(s.int_or("first_node", 0));
  c.num_experts = static_cast<int>(s.at("num_experts").positive_integer());
  c.top_k = static_cast<int>(s.at("top_k").positive_integer());
  c.phase = read_a2a_phase(s);
  c.hidden = static_cast<int>(s.at("hidden").positive_integer());
  c.then_combine = s.bool_or("then_combine", false);
  c.phases = static_cast<int>(s.int_or("phases", 1));
  c.gap_ps = us_to_ps(s.num_or("gap_us", 0));
  c.stop_when_done = s.bool_or("stop_when_done", false);
  c.first_nic = static_cast<int>(s.int_or("first_nic", 0));
  if (s.has("nics")) c.nics = static_cast<int>(s.at("nics").integer());
  return c;
}

WorkloadConfig& add_serve_a2a(ExperimentConfig& c, std::string name, Picoseconds start_ps,
                              ServeA2AConfig a2a) {
  return add_workload(c, "serve_a2a", std::move(name), start_ps, std::move(a2a));
}

PDSIM_REGISTER(
    WorkloadRegistry, "serve_a2a",
    "decode all-to-all phases with tokens per rank and a NIC subset (serving packet fidelity)",
    [](const WorkloadConfig& w, Network& n) -> std::unique_ptr<Workload> {
      return std::make_unique<ServeA2A>(w, typed_settings<ServeA2AConfig>(w, read_serve_a2a), n);
    })

}  // namespace pdsim::packet

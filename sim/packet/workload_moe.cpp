// MoE all-to-all phases (DeepEP low-latency semantics): EP ranks are GPUs (gpus_per_node per
// node from first_node on), experts are placed contiguously (expert e on rank e / experts per
// rank), every token of every rank picks top_k distinct experts uniformly (sampled with Rng),
// and each (token, expert) copy is one message: FP8 dispatch hidden + hidden/128·4 + 16 bytes,
// BF16 combine 2·hidden bytes (calibration-inputs.md). Copies to a rank in the same node go
// over NVLink when the node has an NVSwitch. A phase ends when the last copy has arrived; the
// next phase starts gap_us later, with fresh routing.
#include "sim/packet/moe_copy_bytes.hpp"
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

class MoeA2AWorkload : public Workload {
 public:
  MoeA2AWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "ep_ranks", "first_node", "tokens_per_rank",
                   "num_experts", "top_k", "hidden", "phase", "phases", "gap_us"});
    ranks_ = static_cast<int>(s.at("ep_ranks").positive_integer());
    first_node_ = static_cast<int>(s.int_or("first_node", 0));
    tokens_ = static_cast<int>(s.at("tokens_per_rank").positive_integer());
    experts_ = static_cast<int>(s.at("num_experts").positive_integer());
    top_k_ = static_cast<int>(s.at("top_k").positive_integer());
    bytes_ = moe_copy_bytes(s);
    phases_ = static_cast<int>(s.int_or("phases", 1));
    gap_ps_ = us_to_ps(s.num_or("gap_us", 0));
    gpn_ = net.config().topo.gpus_per_node;
    if (experts_ % ranks_) s.at("num_experts").fail("expected a multiple of ep_ranks");
    if (top_k_ > experts_) s.at("top_k").fail("expected top_k <= num_experts");
    const int nodes_needed = (ranks_ + gpn_ - 1) / gpn_;
    if (first_node_ < 0 || first_node_ + nodes_needed > net.nodes())
      s.at("ep_ranks")
          .fail("expected the EP ranks to fit in the " + std::to_string(net.nodes()) +
                " nodes from first_node on");
  }
  void start() override { net_.events.schedule(start_ps_, this); }

  void handle_event(int, Packet*) override {  // starts a phase
    phase_start_ = net_.events.now();
    outstanding_ = 0;
    const int per_rank = experts_ / ranks_;
    std::vector<int> picks;
    for (int src = 0; src < ranks_; ++src) {
      int copy = 0;
      for (int t = 0; t < tokens_; ++t) {
        rng_.sample_distinct(experts_, top_k_, picks);
        for (int e : picks) {
          const int dst = e / per_rank;
          if (dst != src) send(src, dst, copy++);
        }
      }
    }
    if (outstanding_ == 0) finish();
  }

  void delivered(int64_t, Picoseconds) override {
    if (--outstanding_ == 0) finish();
  }

 private:
  void send(int src, int dst, int copy) {
    const int sn = first_node_ + src / gpn_, dn = first_node_ + dst / gpn_;
    const int sg = src % gpn_, dg = dst % gpn_;
    int se, de;
    if (sn == dn && net_.gpu_endpoint(sn, sg) >= 0) {
      se = net_.gpu_endpoint(sn, sg);
      de = net_.gpu_endpoint(dn, dg);
    } else {  // copies spread round robin over the rank's NICs, same NIC index at both ends
      se = gpu_nic(sn, sg, copy);
      de = gpu_nic(dn, dg, copy);
    }
    ++outstanding_;
    post(se, de, bytes_);
  }
  void finish() {
    phase_us_.push_back(ps_to_us(net_.events.now() - phase_start_));
    if (static_cast<int>(phase_us_.size()) < phases_) net_.events.schedule_in(gap_ps_, this);
  }

  int ranks_, first_node_, tokens_, experts_, top_k_, phases_, gpn_;
  int64_t bytes_ = 0;
  Picoseconds gap_ps_;
  Picoseconds phase_start_ = 0;
  int64_t outstanding_ = 0;
};

}  // namespace

PDSIM_REGISTER(WorkloadRegistry, "moe_a2a", "MoE dispatch/combine phases over EP ranks",
               make_from_file<MoeA2AWorkload>)

}  // namespace pdsim::packet

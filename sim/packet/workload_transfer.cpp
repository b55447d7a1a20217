// Bulk transfers between two nodes: a KV-cache transfer striped block by block over the
// nodes' NICs (one QP per NIC pair, all blocks posted at once), and pipeline-parallel
// activation sends (`count` sends of `bytes`, split over `nics`, one every interval_us).
// Each transfer's completion time is recorded as a phase.
#include "sim/packet/workload.hpp"

namespace pdsim::packet {
namespace {

class TransferWorkload : public Workload {
 public:
  TransferWorkload(const WorkloadConfig& w, const JsonNode& s, Network& net) : Workload(w, net) {
    s.expect_only({"kind", "name", "start_us", "src_node", "dst_node", "bytes", "nics",
                   "block_bytes", "count", "interval_us"});
    src_ = node(s, "src_node");
    dst_ = node(s, "dst_node");
    if (src_ == dst_) s.at("dst_node").fail("expected a node other than src_node");
    bytes_ = s.at("bytes").positive_integer();
    const int all = net.config().topo.nics_per_node;
    nics_ = static_cast<int>(s.int_or("nics", w.kind == "kv_transfer" ? all : 1));
    if (nics_ < 1 || nics_ > all) s.at("nics").fail("expected 1.." + std::to_string(all));
    block_ = s.has("block_bytes") ? s.at("block_bytes").positive_integer()
                                  : (bytes_ + nics_ - 1) / nics_;
    count_ = static_cast<int>(s.int_or("count", 1));
    interval_ps_ = us_to_ps(s.num_or("interval_us", 0));
  }
  void start() override { net_.events.schedule(start_ps_, this); }
  void handle_event(int, Packet*) override {
    starts_.push_back(net_.events.now());
    const auto id = static_cast<int64_t>(starts_.size()) - 1;
    int64_t left = bytes_;
    for (int64_t b = 0; left > 0; ++b) {
      const int64_t sz = left < block_ ? left : block_;
      const int nic = static_cast<int>(b % nics_);
      const int64_t rec = post(net_.nic_endpoint(src_, nic), net_.nic_endpoint(dst_, nic), sz);
      transfer_of_.resize(static_cast<size_t>(rec) + 1, id);
      left -= sz;
    }
    left_.push_back(static_cast<int64_t>(transfer_of_.size()) - first_rec_);
    first_rec_ = static_cast<int64_t>(transfer_of_.size());
    if (static_cast<int>(starts_.size()) < count_) net_.events.schedule_in(interval_ps_, this);
  }
  void delivered(int64_t rec, Picoseconds at) override {
    const int64_t id = transfer_of_[static_cast<size_t>(rec)];
    if (--left_[static_cast<size_t>(id)] == 0)
      phase_us_.push_back(ps_to_us(at - starts_[static_cast<size_t>(id)]));
  }

 private:
  int node(const JsonNode& s, std::string_view key) const {
    const int64_t n = s.at(key).integer();
    if (n < 0 || n >= net_.nodes())
      s.at(key).fail("expected a node in [0, " + std::to_string(net_.nodes()) + ")");
    return static_cast<int>(n);
  }
  int src_, dst_, nics_, count_;
  int64_t bytes_, block_;
  Picoseconds interval_ps_;
  std::vector<Picoseconds> starts_;
  std::vector<int64_t> transfer_of_, left_;
  int64_t first_rec_ = 0;
};

}  // namespace

PDSIM_REGISTER(WorkloadRegistry, "kv_transfer", "KV-cache transfer striped over NICs",
               make_from_file<TransferWorkload>)
PDSIM_REGISTER(WorkloadRegistry, "pp_send", "pipeline-parallel activation sends",
               make_from_file<TransferWorkload>)

}  // namespace pdsim::packet

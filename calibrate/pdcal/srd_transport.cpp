#include "calibrate/pdcal/srd_transport.hpp"

#include "calibrate/pdcal/srd_device.hpp"

#ifdef PDCAL_HAVE_EFADV
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "calibrate/pdcal/address_blob.hpp"
#include "calibrate/pdcal/probe_error.hpp"
#include "calibrate/pdcal/srd_matching.hpp"
#endif

namespace pdsim::pdcal {

#ifndef PDCAL_HAVE_EFADV

std::unique_ptr<Transport> make_srd_transport(const VerbsOptions& opt, Bootstrap&) {
  srd_check_device(opt);
  return nullptr;
}

#else

namespace {

constexpr int kBounce = 512;     // receive buffers kept posted on endpoint 0
constexpr int kHdrSlots = 4096;  // > send queue depth: a header slot is never reused in flight
constexpr int kSendDepth = 1024;

class SrdTransport final : public Transport {
 public:
  SrdTransport(const VerbsOptions& opt, Bootstrap& boot)
      : opt_(opt), rank_(boot.rank()), nranks_(boot.nranks()), dev_(opt.device) {
    pd_ = ibv_alloc_pd(dev_.context());
    cq_ = ibv_create_cq(dev_.context(), 8192, nullptr, nullptr, 0);
    if (!pd_ || !cq_) throw ProbeError("srd: cannot allocate protection domain or CQ");
    if (ibv_query_port(dev_.context(), static_cast<uint8_t>(opt.port), &port_))
      throw ProbeError("srd: cannot query port " + std::to_string(opt.port));
    max_msg_ = std::min<size_t>(port_.max_msg_sz, 1 << 16);
    if (max_msg_ <= sizeof(SrdHeader)) throw ProbeError("srd: port max_msg_sz too small");
    payload_max_ = max_msg_ - sizeof(SrdHeader);
    bytes_ = (opt.buffer_bytes + 4095) / 4096 * 4096;
    buf_ = alloc(bytes_);
    hdr_ = alloc(sizeof(SrdHeader) * kHdrSlots);
    bounce_ = alloc(max_msg_ * kBounce);
    matcher_ = SrdMatcher(buf_, payload_max_);
    const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    mr_ = ibv_reg_mr(pd_, buf_, bytes_, access);
    hdr_mr_ = ibv_reg_mr(pd_, hdr_, sizeof(SrdHeader) * kHdrSlots, IBV_ACCESS_LOCAL_WRITE);
    bounce_mr_ = ibv_reg_mr(pd_, bounce_, max_msg_ * kBounce, IBV_ACCESS_LOCAL_WRITE);
    if (!mr_ || !hdr_mr_ || !bounce_mr_) throw ProbeError("srd: ibv_reg_mr failed");
    ibv_gid gid{};
    if (ibv_query_gid(dev_.context(), static_cast<uint8_t>(opt.port), 0, &gid))
      throw ProbeError("srd: cannot read GID 0");
    const auto E = static_cast<size_t>(opt.endpoints), R = static_cast<size_t>(nranks_);
    for (size_t e = 0; e < E; ++e) {
      qps_.push_back(create_srd_qp(dev_, pd_, cq_, opt.port, kSendDepth, kBounce));
      qpx_.push_back(ibv_qp_to_qp_ex(qps_.back()));
    }
    for (int i = 0; i < kBounce; ++i) post_bounce(i);

    std::string blob;
    blob_put(blob, &gid, sizeof gid);
    blob_put(blob, &mr_->rkey, sizeof mr_->rkey);
    const auto base = reinterpret_cast<uint64_t>(buf_);
    blob_put(blob, &base, sizeof base);
    for (auto* q : qps_) blob_put(blob, &q->qp_num, sizeof q->qp_num);
    const auto all = boot.allgather(blob, opt.timeout_s);
    peers_.resize(R);
    for (size_t p = 0; p < R; ++p) {
      size_t pos = 0;
      Peer& pe = peers_[p];
      const auto rgid = blob_get<ibv_gid>(all[p], pos, "SRD");
      pe.rkey = blob_get<uint32_t>(all[p], pos, "SRD");
      pe.addr = blob_get<uint64_t>(all[p], pos, "SRD");
      for (size_t e = 0; e < E; ++e) pe.qpn.push_back(blob_get<uint32_t>(all[p], pos, "SRD"));
      if (static_cast<int>(p) == rank_) continue;
      ibv_ah_attr a{};
      a.is_global = 1;
      a.port_num = static_cast<uint8_t>(opt.port);
      a.grh.dgid = rgid;
      a.grh.sgid_index = 0;
      pe.ah = ibv_create_ah(pd_, &a);
      if (!pe.ah) throw ProbeError("srd: ibv_create_ah failed for rank " + std::to_string(p));
    }
  }

  // The device itself is closed afterwards, by dev_'s destructor.
  ~SrdTransport() override {
    for (auto& p : peers_)
      if (p.ah) ibv_destroy_ah(p.ah);
    for (auto* q : qps_) ibv_destroy_qp(q);
    for (auto* m : {mr_, hdr_mr_, bounce_mr_})
      if (m) ibv_dereg_mr(m);
    if (cq_) ibv_destroy_cq(cq_);
    if (pd_) ibv_dealloc_pd(pd_);
    for (char* p : {buf_, hdr_, bounce_}) std::free(p);
  }

  int rank() const override { return rank_; }
  int nranks() const override { return nranks_; }
  int endpoints() const override { return opt_.endpoints; }
  char* buffer() override { return buf_; }
  size_t buffer_bytes() const override { return bytes_; }

  void post_send(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    const size_t nseg = std::max<size_t>(1, (bytes + payload_max_ - 1) / payload_max_);
    SrdOpState s;
    s.tag = tag;
    s.peer = peer;
    s.bytes = bytes;
    s.pending = static_cast<uint32_t>(nseg);
    set_srd_state(op, s);
    op.done = false;
    for (size_t k = 0; k < nseg; ++k) {
      auto* h = reinterpret_cast<SrdHeader*>(hdr_ + sizeof(SrdHeader) * (next_hdr_++ % kHdrSlots));
      *h = SrdHeader{tag, static_cast<uint32_t>(rank_), static_cast<uint32_t>(k), 0, bytes};
      const size_t off = k * payload_max_,
                   len = std::min(payload_max_, bytes - std::min(bytes, off));
      ibv_sge sg[2] = {
          {reinterpret_cast<uint64_t>(h), sizeof(SrdHeader), hdr_mr_->lkey},
          {reinterpret_cast<uint64_t>(buf_ + offset + off), static_cast<uint32_t>(len), mr_->lkey}};
      submit(0, peer, op, [&](ibv_qp_ex* x) {
        ibv_wr_send(x);
        ibv_wr_set_sge_list(x, len > 0 ? 2 : 1, sg);
      });
    }
  }

  void post_recv(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    matcher_.post(op, peer, tag, offset, bytes);
  }

  void post_write(int peer, int ep, size_t local_offset, size_t remote_offset, size_t bytes,
                  Op& op) override {
    if (!dev_.rdma_write())
      throw ProbeError(
          "srd: this EFA device does not offer RDMA write (efadv device_caps); pingpong runs, "
          "bandwidth/scatter/a2a-loop need writes: use --api fabric --provider efa");
    const size_t chunk = dev_.max_rdma() > 0 ? dev_.max_rdma() : bytes;
    const size_t nseg = std::max<size_t>(1, (bytes + chunk - 1) / chunk);
    SrdOpState s;
    s.peer = peer;
    s.pending = static_cast<uint32_t>(nseg);
    set_srd_state(op, s);
    op.done = false;
    const Peer& pe = peers_[static_cast<size_t>(peer)];
    for (size_t k = 0; k < nseg; ++k) {
      const size_t off = k * chunk, len = std::min(chunk, bytes - std::min(bytes, off));
      submit(ep, peer, op, [&](ibv_qp_ex* x) {
        ibv_wr_rdma_write(x, pe.rkey, pe.addr + remote_offset + off);
        ibv_wr_set_sge(x, mr_->lkey, reinterpret_cast<uint64_t>(buf_ + local_offset + off),
                       static_cast<uint32_t>(len));
      });
    }
  }

  void progress() override {
    ibv_wc wc[32];
    const int n = ibv_poll_cq(cq_, 32, wc);
    if (n < 0) throw ProbeError("srd: ibv_poll_cq failed");
    for (int i = 0; i < n; ++i) {
      if (wc[i].status != IBV_WC_SUCCESS)
        throw ProbeError(std::string("srd completion error: ") + ibv_wc_status_str(wc[i].status) +
                         " (peer died or unreachable?)");
      if (wc[i].opcode == IBV_WC_RECV) {
        const int slot = static_cast<int>(wc[i].wr_id);
        const char* b = bounce_ + max_msg_ * static_cast<size_t>(slot);
        if (wc[i].byte_len < sizeof(SrdHeader)) throw ProbeError("srd: runt message");
        SrdHeader h;
        std::memcpy(&h, b, sizeof h);
        matcher_.received(h, b + sizeof h, wc[i].byte_len - sizeof h);
        post_bounce(slot);
        continue;
      }
      auto* op = reinterpret_cast<Op*>(wc[i].wr_id);
      SrdOpState s = srd_state(*op);
      if (--s.pending == 0) op->done = true;
      set_srd_state(*op, s);
    }
  }

  nlohmann::json describe() const override {
    return {{"api", "libibverbs+efadv"},
            {"provider", "verbs-srd"},
            {"device", dev_.name()},
            {"port", opt_.port},
            {"endpoints", opt_.endpoints},
            {"max_msg_bytes", max_msg_},
            {"rdma_write", dev_.rdma_write()},
            {"max_rdma_bytes", dev_.max_rdma()},
            {"completion",
             "SRD: acknowledged by the target device; messages unordered, matched "
             "in software through bounce buffers"}};
  }

 private:
  struct Peer {
    ibv_ah* ah = nullptr;
    uint32_t rkey = 0;
    uint64_t addr = 0;
    std::vector<uint32_t> qpn;  // per endpoint
  };

  static char* alloc(size_t n) {
    char* p = static_cast<char*>(std::aligned_alloc(4096, (n + 4095) / 4096 * 4096));
    if (!p) throw ProbeError("srd: out of memory");
    std::memset(p, 0, n);
    return p;
  }

  void post_bounce(int slot) {
    ibv_sge sge{reinterpret_cast<uint64_t>(bounce_ + max_msg_ * static_cast<size_t>(slot)),
                static_cast<uint32_t>(max_msg_), bounce_mr_->lkey};
    ibv_recv_wr wr{};
    wr.wr_id = static_cast<uint64_t>(slot);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (ibv_post_recv(qps_[0], &wr, &bad)) throw ProbeError("srd: ibv_post_recv failed");
  }

  template <class Fill>
  void submit(int ep, int peer, Op& op, Fill fill) {
    ibv_qp_ex* x = qpx_[static_cast<size_t>(ep)];
    const Peer& pe = peers_[static_cast<size_t>(peer)];
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(opt_.timeout_s));
    for (;;) {
      ibv_wr_start(x);
      x->wr_id = reinterpret_cast<uint64_t>(&op);
      x->wr_flags = IBV_SEND_SIGNALED;
      fill(x);
      ibv_wr_set_ud_addr(x, pe.ah, pe.qpn[static_cast<size_t>(ep)], kSrdQkey);
      if (ibv_wr_complete(x) == 0) return;
      progress();  // send queue full: drain completions, retry
      if (Clock::now() > deadline) throw ProbeError("timeout: SRD send queue stayed full");
    }
  }

  VerbsOptions opt_;
  int rank_, nranks_;
  SrdDevice dev_;  // first member after the options: opened before, closed after, the rest
  ibv_pd* pd_ = nullptr;
  ibv_cq* cq_ = nullptr;
  ibv_port_attr port_{};
  ibv_mr *mr_ = nullptr, *hdr_mr_ = nullptr, *bounce_mr_ = nullptr;
  char *buf_ = nullptr, *hdr_ = nullptr, *bounce_ = nullptr;
  size_t bytes_ = 0, max_msg_ = 0, payload_max_ = 0;
  uint64_t next_hdr_ = 0;
  std::vector<ibv_qp*> qps_;
  std::vector<ibv_qp_ex*> qpx_;
  std::vector<Peer> peers_;
  SrdMatcher matcher_;
};

}  // namespace

std::unique_ptr<Transport> make_srd_transport(const VerbsOptions& opt, Bootstrap& boot) {
  return std::make_unique<SrdTransport>(opt, boot);
}

#endif

}  // namespace pdsim::pdcal

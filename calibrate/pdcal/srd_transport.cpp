#include "calibrate/pdcal/srd_transport.hpp"

#include "calibrate/pdcal/address_blob.hpp"
#include "calibrate/pdcal/probe_error.hpp"

#ifdef PDCAL_HAVE_EFADV
#include <infiniband/efadv.h>
#include <infiniband/verbs.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#endif

namespace pdsim::pdcal {

#ifndef PDCAL_HAVE_EFADV

void srd_check_device(const VerbsOptions&) {
  throw NoDeviceError(
      "verbs: this pdcal was built without efadv (rdma-core's infiniband/efadv.h and libefa), so "
      "no SRD QPs; on EFA use --api fabric --provider efa");
}
std::unique_ptr<Transport> make_srd_transport(const VerbsOptions& opt, Bootstrap&) {
  srd_check_device(opt);
  return nullptr;
}

#else

namespace {

// rdma-core ≥ v45 names it EFADV_DEVICE_ATTR_CAPS_RDMA_WRITE; older headers (Debian 12 ships
// v44) lack the name but newer devices and kernels set the bit.
constexpr uint32_t kCapsRdmaWrite = 1u << 3;
constexpr uint32_t kQkey = 0x11111111;
constexpr int kBounce = 512;     // receive buffers kept posted on endpoint 0
constexpr int kHdrSlots = 4096;  // > send queue depth: a header slot is never reused in flight
constexpr int kSendDepth = 1024;

struct Header {
  uint32_t tag, src, seg, pad;
  uint64_t total;
};

// Per-operation state kept in Op::ctx.
struct OpState {
  uint32_t tag = 0;
  int32_t peer = 0;
  uint64_t offset = 0, bytes = 0, got = 0;
  uint32_t pending = 0;  // sends/writes: segments not completed yet
};
static_assert(sizeof(OpState) <= sizeof(Op::ctx));
OpState state(const Op& op) {
  OpState s;
  std::memcpy(&s, op.ctx, sizeof s);
  return s;
}
void set_state(Op& op, const OpState& s) {
  std::memcpy(op.ctx, &s, sizeof s);
}

bool is_efa(ibv_context* ctx, efadv_device_attr* attr) {
  efadv_device_attr a{};
  const bool ok = efadv_query_device(ctx, &a, sizeof a) == 0;
  if (ok && attr) *attr = a;
  return ok;
}

class SrdTransport final : public Transport {
 public:
  SrdTransport(const VerbsOptions& opt, Bootstrap& boot)
      : opt_(opt), rank_(boot.rank()), nranks_(boot.nranks()) {
    open_device();
    pd_ = ibv_alloc_pd(ctx_);
    cq_ = ibv_create_cq(ctx_, 8192, nullptr, nullptr, 0);
    if (!pd_ || !cq_) throw ProbeError("srd: cannot allocate protection domain or CQ");
    if (ibv_query_port(ctx_, static_cast<uint8_t>(opt.port), &port_))
      throw ProbeError("srd: cannot query port " + std::to_string(opt.port));
    max_msg_ = std::min<size_t>(port_.max_msg_sz, 1 << 16);
    if (max_msg_ <= sizeof(Header)) throw ProbeError("srd: port max_msg_sz too small");
    payload_max_ = max_msg_ - sizeof(Header);
    bytes_ = (opt.buffer_bytes + 4095) / 4096 * 4096;
    buf_ = alloc(bytes_);
    hdr_ = alloc(sizeof(Header) * kHdrSlots);
    bounce_ = alloc(max_msg_ * kBounce);
    const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    mr_ = ibv_reg_mr(pd_, buf_, bytes_, access);
    hdr_mr_ = ibv_reg_mr(pd_, hdr_, sizeof(Header) * kHdrSlots, IBV_ACCESS_LOCAL_WRITE);
    bounce_mr_ = ibv_reg_mr(pd_, bounce_, max_msg_ * kBounce, IBV_ACCESS_LOCAL_WRITE);
    if (!mr_ || !hdr_mr_ || !bounce_mr_) throw ProbeError("srd: ibv_reg_mr failed");
    ibv_gid gid{};
    if (ibv_query_gid(ctx_, static_cast<uint8_t>(opt.port), 0, &gid))
      throw ProbeError("srd: cannot read GID 0");
    const auto E = static_cast<size_t>(opt.endpoints), R = static_cast<size_t>(nranks_);
    for (size_t e = 0; e < E; ++e) create_qp();
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

  ~SrdTransport() override {
    for (auto& p : peers_)
      if (p.ah) ibv_destroy_ah(p.ah);
    for (auto* q : qps_) ibv_destroy_qp(q);
    for (auto* m : {mr_, hdr_mr_, bounce_mr_})
      if (m) ibv_dereg_mr(m);
    if (cq_) ibv_destroy_cq(cq_);
    if (pd_) ibv_dealloc_pd(pd_);
    if (ctx_) ibv_close_device(ctx_);
    if (list_) ibv_free_device_list(list_);
    for (char* p : {buf_, hdr_, bounce_}) std::free(p);
  }

  int rank() const override { return rank_; }
  int nranks() const override { return nranks_; }
  int endpoints() const override { return opt_.endpoints; }
  char* buffer() override { return buf_; }
  size_t buffer_bytes() const override { return bytes_; }

  void post_send(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    const size_t nseg = std::max<size_t>(1, (bytes + payload_max_ - 1) / payload_max_);
    OpState s;
    s.tag = tag;
    s.peer = peer;
    s.bytes = bytes;
    s.pending = static_cast<uint32_t>(nseg);
    set_state(op, s);
    op.done = false;
    for (size_t k = 0; k < nseg; ++k) {
      auto* h = reinterpret_cast<Header*>(hdr_ + sizeof(Header) * (next_hdr_++ % kHdrSlots));
      *h = Header{tag, static_cast<uint32_t>(rank_), static_cast<uint32_t>(k), 0, bytes};
      const size_t off = k * payload_max_,
                   len = std::min(payload_max_, bytes - std::min(bytes, off));
      ibv_sge sg[2] = {
          {reinterpret_cast<uint64_t>(h), sizeof(Header), hdr_mr_->lkey},
          {reinterpret_cast<uint64_t>(buf_ + offset + off), static_cast<uint32_t>(len), mr_->lkey}};
      submit(0, peer, op, [&](ibv_qp_ex* x) {
        ibv_wr_send(x);
        ibv_wr_set_sge_list(x, len > 0 ? 2 : 1, sg);
      });
    }
  }

  void post_recv(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    OpState s;
    s.tag = tag;
    s.peer = peer;
    s.offset = offset;
    s.bytes = bytes;
    set_state(op, s);
    op.done = false;
    posted_.push_back(&op);
    // Segments that arrived before this receive was posted.
    for (auto it = unexpected_.begin(); it != unexpected_.end() && !op.done;) {
      if (static_cast<int>(it->h.src) == peer && it->h.tag == tag) {
        deliver(op, it->h, it->payload.data(), it->payload.size());
        it = unexpected_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void post_write(int peer, int ep, size_t local_offset, size_t remote_offset, size_t bytes,
                  Op& op) override {
    if (!rdma_write_)
      throw ProbeError(
          "srd: this EFA device does not offer RDMA write (efadv device_caps); pingpong runs, "
          "bandwidth/scatter/a2a-loop need writes: use --api fabric --provider efa");
    const size_t chunk = max_rdma_ > 0 ? max_rdma_ : bytes;
    const size_t nseg = std::max<size_t>(1, (bytes + chunk - 1) / chunk);
    OpState s;
    s.peer = peer;
    s.pending = static_cast<uint32_t>(nseg);
    set_state(op, s);
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
        if (wc[i].byte_len < sizeof(Header)) throw ProbeError("srd: runt message");
        Header h;
        std::memcpy(&h, b, sizeof h);
        received(h, b + sizeof h, wc[i].byte_len - sizeof h);
        post_bounce(slot);
        continue;
      }
      auto* op = reinterpret_cast<Op*>(wc[i].wr_id);
      OpState s = state(*op);
      if (--s.pending == 0) op->done = true;
      set_state(*op, s);
    }
  }

  nlohmann::json describe() const override {
    return {{"api", "libibverbs+efadv"},
            {"provider", "verbs-srd"},
            {"device", dev_name_},
            {"port", opt_.port},
            {"endpoints", opt_.endpoints},
            {"max_msg_bytes", max_msg_},
            {"rdma_write", rdma_write_},
            {"max_rdma_bytes", max_rdma_},
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
  struct Early {
    Header h;
    std::vector<char> payload;
  };

  static char* alloc(size_t n) {
    char* p = static_cast<char*>(std::aligned_alloc(4096, (n + 4095) / 4096 * 4096));
    if (!p) throw ProbeError("srd: out of memory");
    std::memset(p, 0, n);
    return p;
  }

  void open_device() {
    int n = 0;
    list_ = ibv_get_device_list(&n);
    for (int i = 0; list_ && i < n && !ctx_; ++i) {
      if (!opt_.device.empty() && opt_.device != ibv_get_device_name(list_[i])) continue;
      ibv_context* c = ibv_open_device(list_[i]);
      efadv_device_attr a{};
      if (c && is_efa(c, &a)) {
        ctx_ = c;
        dev_name_ = ibv_get_device_name(list_[i]);
        rdma_write_ = (a.device_caps & kCapsRdmaWrite) != 0;
        rnr_retry_ = (a.device_caps & EFADV_DEVICE_ATTR_CAPS_RNR_RETRY) != 0;
        max_rdma_ = a.max_rdma_size;
      } else if (c) {
        ibv_close_device(c);
      }
    }
    if (!ctx_) throw NoDeviceError("srd: no EFA device");
  }

  void create_qp() {
    ibv_qp_init_attr_ex a{};
    a.qp_type = IBV_QPT_DRIVER;
    a.send_cq = cq_;
    a.recv_cq = cq_;
    a.cap.max_send_wr = kSendDepth;
    a.cap.max_recv_wr = kBounce;
    a.cap.max_send_sge = 2;
    a.cap.max_recv_sge = 1;
    a.pd = pd_;
    a.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    a.send_ops_flags = IBV_QP_EX_WITH_SEND | (rdma_write_ ? IBV_QP_EX_WITH_RDMA_WRITE : 0);
    efadv_qp_init_attr e{};
    e.driver_qp_type = EFADV_QP_DRIVER_TYPE_SRD;
    ibv_qp* q = efadv_create_qp_ex(ctx_, &a, &e, sizeof e);
    if (!q) throw ProbeError("srd: efadv_create_qp_ex (SRD) failed");
    qps_.push_back(q);
    qpx_.push_back(ibv_qp_to_qp_ex(q));
    ibv_qp_attr m{};
    m.qp_state = IBV_QPS_INIT;
    m.pkey_index = 0;
    m.port_num = static_cast<uint8_t>(opt_.port);
    m.qkey = kQkey;
    if (ibv_modify_qp(q, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
      throw ProbeError("srd: QP to INIT failed");
    m = {};
    m.qp_state = IBV_QPS_RTR;
    if (ibv_modify_qp(q, &m, IBV_QP_STATE)) throw ProbeError("srd: QP to RTR failed");
    m = {};
    m.qp_state = IBV_QPS_RTS;
    m.sq_psn = 0;
    int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
    if (rnr_retry_) {
      m.rnr_retry = 7;  // a receiver short of posted buffers is retried, not an error
      mask |= IBV_QP_RNR_RETRY;
    }
    if (ibv_modify_qp(q, &m, mask)) throw ProbeError("srd: QP to RTS failed");
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
      ibv_wr_set_ud_addr(x, pe.ah, pe.qpn[static_cast<size_t>(ep)], kQkey);
      if (ibv_wr_complete(x) == 0) return;
      progress();  // send queue full: drain completions, retry
      if (Clock::now() > deadline) throw ProbeError("timeout: SRD send queue stayed full");
    }
  }

  void received(const Header& h, const char* payload, size_t len) {
    for (Op* op : posted_) {
      const OpState s = state(*op);
      if (s.peer == static_cast<int32_t>(h.src) && s.tag == h.tag) {
        deliver(*op, h, payload, len);
        return;
      }
    }
    unexpected_.push_back({h, std::vector<char>(payload, payload + len)});
  }

  void deliver(Op& op, const Header& h, const char* payload, size_t len) {
    OpState s = state(op);
    const uint64_t off = uint64_t{h.seg} * payload_max_;
    if (h.total != s.bytes || off + len > s.bytes)
      throw ProbeError("srd: message of " + std::to_string(h.total) + " B for a receive of " +
                       std::to_string(s.bytes) + " B (probe bug or mismatched ranks)");
    std::memcpy(buf_ + s.offset + off, payload, len);
    s.got += len;
    set_state(op, s);
    if (s.got == s.bytes) {
      op.done = true;
      posted_.erase(std::find(posted_.begin(), posted_.end(), &op));
    }
  }

  VerbsOptions opt_;
  int rank_, nranks_;
  ibv_device** list_ = nullptr;
  std::string dev_name_;
  ibv_context* ctx_ = nullptr;
  ibv_pd* pd_ = nullptr;
  ibv_cq* cq_ = nullptr;
  ibv_port_attr port_{};
  ibv_mr *mr_ = nullptr, *hdr_mr_ = nullptr, *bounce_mr_ = nullptr;
  char *buf_ = nullptr, *hdr_ = nullptr, *bounce_ = nullptr;
  size_t bytes_ = 0, max_msg_ = 0, payload_max_ = 0;
  uint64_t next_hdr_ = 0;
  bool rdma_write_ = false, rnr_retry_ = false;
  uint32_t max_rdma_ = 0;
  std::vector<ibv_qp*> qps_;
  std::vector<ibv_qp_ex*> qpx_;
  std::vector<Peer> peers_;
  std::deque<Op*> posted_;
  std::deque<Early> unexpected_;
};

}  // namespace

void srd_check_device(const VerbsOptions& opt) {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  std::string names;
  bool found = false;
  for (int i = 0; list && i < n && !found; ++i) {
    const std::string name = ibv_get_device_name(list[i]);
    names += (names.empty() ? "" : ", ") + name;
    if (!opt.device.empty() && opt.device != name) continue;
    if (ibv_context* c = ibv_open_device(list[i])) {
      found = is_efa(c, nullptr);
      ibv_close_device(c);
    }
  }
  if (list) ibv_free_device_list(list);
  if (!found)
    throw NoDeviceError(
        "verbs: --qp srd needs an AWS EFA device (one that answers efadv_query_device); " +
        (n == 0 ? std::string("no RDMA device found on this host (check `ibv_devices`, the efa "
                              "kernel driver and rdma-core's libefa)")
                : "none among: " + names));
}

std::unique_ptr<Transport> make_srd_transport(const VerbsOptions& opt, Bootstrap& boot) {
  return std::make_unique<SrdTransport>(opt, boot);
}

#endif

}  // namespace pdsim::pdcal

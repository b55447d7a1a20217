#include "calibrate/pdcal/verbs_transport.hpp"

#include "calibrate/pdcal/address_blob.hpp"
#include "calibrate/pdcal/probe_error.hpp"
#include "calibrate/pdcal/srd_device.hpp"
#include "calibrate/pdcal/srd_transport.hpp"

#ifdef PDCAL_HAVE_VERBS
#include <arpa/inet.h>
#include <infiniband/verbs.h>

#include <cstdlib>
#include <cstring>
#endif

namespace pdsim::pdcal {

#ifndef PDCAL_HAVE_VERBS

void verbs_check_device(const VerbsOptions&) {
  throw NoDeviceError("verbs: this pdcal was built without libibverbs; use --api fabric");
}
std::unique_ptr<Transport> make_verbs_transport(const VerbsOptions& opt, Bootstrap&) {
  verbs_check_device(opt);
  return nullptr;
}

#else

namespace {

ibv_device* find_device(const VerbsOptions& opt, ibv_device** list, int n) {
  for (int i = 0; i < n; ++i)
    if (opt.device.empty() || opt.device == ibv_get_device_name(list[i])) return list[i];
  return nullptr;
}

class VerbsTransport final : public Transport {
 public:
  VerbsTransport(const VerbsOptions& opt, Bootstrap& boot)
      : opt_(opt), rank_(boot.rank()), nranks_(boot.nranks()) {
    int n = 0;
    list_ = ibv_get_device_list(&n);
    ibv_device* dev = list_ ? find_device(opt, list_, n) : nullptr;
    if (dev == nullptr) throw NoDeviceError("verbs: no RDMA device");
    dev_name_ = ibv_get_device_name(dev);
    ctx_ = ibv_open_device(dev);
    if (!ctx_) throw ProbeError("verbs: cannot open device " + dev_name_);
    pd_ = ibv_alloc_pd(ctx_);
    bytes_ = (opt.buffer_bytes + 4095) / 4096 * 4096;
    buf_ = static_cast<char*>(std::aligned_alloc(4096, bytes_));
    if (!pd_ || !buf_) throw ProbeError("verbs: cannot allocate protection domain or buffer");
    std::memset(buf_, 0, bytes_);
    mr_ = ibv_reg_mr(pd_, buf_, bytes_, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    cq_ = ibv_create_cq(ctx_, 4096, nullptr, nullptr, 0);
    if (!mr_ || !cq_) throw ProbeError("verbs: ibv_reg_mr or ibv_create_cq failed");
    if (ibv_query_port(ctx_, static_cast<uint8_t>(opt.port), &port_))
      throw ProbeError("verbs: cannot query port " + std::to_string(opt.port));
    ibv_gid gid{};
    if (opt.gid_index >= 0 &&
        ibv_query_gid(ctx_, static_cast<uint8_t>(opt.port), opt.gid_index, &gid))
      throw ProbeError("verbs: cannot read GID index " + std::to_string(opt.gid_index));
    const auto E = static_cast<size_t>(opt.endpoints), R = static_cast<size_t>(nranks_);
    qps_.assign(E * R, nullptr);
    std::string blob;
    blob_put(blob, &port_.lid, sizeof port_.lid);
    blob_put(blob, &gid, sizeof gid);
    blob_put(blob, &mr_->rkey, sizeof mr_->rkey);
    auto base = reinterpret_cast<uint64_t>(buf_);
    blob_put(blob, &base, sizeof base);
    for (size_t e = 0; e < E; ++e)
      for (size_t p = 0; p < R; ++p) {
        uint32_t qpn = 0;
        if (static_cast<int>(p) != rank_) {
          qps_[e * R + p] = create_qp();
          qpn = qps_[e * R + p]->qp_num;
        }
        blob_put(blob, &qpn, sizeof qpn);
      }
    auto all = boot.allgather(blob, opt.timeout_s);
    rkey_.resize(R);
    raddr_.resize(R);
    for (size_t p = 0; p < R; ++p) {
      size_t pos = 0;
      auto lid = blob_get<uint16_t>(all[p], pos, "verbs");
      auto rgid = blob_get<ibv_gid>(all[p], pos, "verbs");
      rkey_[p] = blob_get<uint32_t>(all[p], pos, "verbs");
      raddr_[p] = blob_get<uint64_t>(all[p], pos, "verbs");
      for (size_t e = 0; e < E; ++e)
        for (size_t q = 0; q < R; ++q) {
          auto qpn = blob_get<uint32_t>(all[p], pos, "verbs");
          if (static_cast<int>(q) == rank_ && static_cast<int>(p) != rank_)
            connect_qp(qps_[e * R + p], qpn, lid, rgid);
        }
    }
  }

  ~VerbsTransport() override {
    for (auto* qp : qps_)
      if (qp) ibv_destroy_qp(qp);
    if (cq_) ibv_destroy_cq(cq_);
    if (mr_) ibv_dereg_mr(mr_);
    if (pd_) ibv_dealloc_pd(pd_);
    if (ctx_) ibv_close_device(ctx_);
    if (list_) ibv_free_device_list(list_);
    std::free(buf_);
  }

  int rank() const override { return rank_; }
  int nranks() const override { return nranks_; }
  int endpoints() const override { return opt_.endpoints; }
  char* buffer() override { return buf_; }
  size_t buffer_bytes() const override { return bytes_; }

  void post_send(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    ibv_send_wr wr = make_wr(op, offset, bytes);
    wr.opcode = IBV_WR_SEND_WITH_IMM;
    wr.imm_data = htonl(tag);
    post(qp(0, peer), wr);
  }
  void post_recv(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    op.done = false;
    std::memcpy(op.ctx, &tag, sizeof tag);  // checked against the immediate on completion
    ibv_sge sge{reinterpret_cast<uint64_t>(buf_ + offset), static_cast<uint32_t>(bytes), mr_->lkey};
    ibv_recv_wr wr{};
    wr.wr_id = reinterpret_cast<uint64_t>(&op);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (ibv_post_recv(qp(0, peer), &wr, &bad)) throw ProbeError("verbs: ibv_post_recv failed");
  }
  void post_write(int peer, int ep, size_t local_offset, size_t remote_offset, size_t bytes,
                  Op& op) override {
    ibv_send_wr wr = make_wr(op, local_offset, bytes);
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.wr.rdma.remote_addr = raddr_[static_cast<size_t>(peer)] + remote_offset;
    wr.wr.rdma.rkey = rkey_[static_cast<size_t>(peer)];
    post(qp(ep, peer), wr);
  }

  void progress() override {
    ibv_wc wc[16];
    int n = ibv_poll_cq(cq_, 16, wc);
    if (n < 0) throw ProbeError("verbs: ibv_poll_cq failed");
    for (int i = 0; i < n; ++i) {
      if (wc[i].status != IBV_WC_SUCCESS)
        throw ProbeError(std::string("verbs completion error: ") + ibv_wc_status_str(wc[i].status) +
                         " (peer died or unreachable?)");
      auto* op = reinterpret_cast<Op*>(wc[i].wr_id);
      if (wc[i].opcode == IBV_WC_RECV) {
        uint32_t want = 0;
        std::memcpy(&want, op->ctx, sizeof want);
        if (!(wc[i].wc_flags & IBV_WC_WITH_IMM) || ntohl(wc[i].imm_data) != want)
          throw ProbeError("verbs: messages arrived out of the expected order (probe bug)");
      }
      op->done = true;
    }
  }

  nlohmann::json describe() const override {
    return {{"api", "libibverbs"},
            {"provider", "verbs-rc"},
            {"device", dev_name_},
            {"port", opt_.port},
            {"gid_index", opt_.gid_index},
            {"endpoints", opt_.endpoints},
            {"active_mtu_bytes", 128 << static_cast<int>(port_.active_mtu)},
            {"completion", "RC write acknowledged"}};
  }

 private:
  ibv_qp* qp(int ep, int peer) {
    return qps_[static_cast<size_t>(ep) * static_cast<size_t>(nranks_) + static_cast<size_t>(peer)];
  }
  ibv_send_wr make_wr(Op& op, size_t offset, size_t bytes) {
    op.done = false;
    sge_ = {reinterpret_cast<uint64_t>(buf_ + offset), static_cast<uint32_t>(bytes), mr_->lkey};
    ibv_send_wr wr{};
    wr.wr_id = reinterpret_cast<uint64_t>(&op);
    wr.sg_list = &sge_;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED;
    return wr;
  }
  void post(ibv_qp* q, ibv_send_wr& wr) {
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(opt_.timeout_s));
    ibv_send_wr* bad = nullptr;
    while (ibv_post_send(q, &wr, &bad) != 0) {  // send queue full: drain completions, retry
      progress();
      if (Clock::now() > deadline) throw ProbeError("timeout: verbs send queue stayed full");
    }
  }
  ibv_qp* create_qp() {
    ibv_qp_init_attr a{};
    a.send_cq = cq_;
    a.recv_cq = cq_;
    a.qp_type = IBV_QPT_RC;
    a.cap.max_send_wr = 1024;
    a.cap.max_recv_wr = 1024;
    a.cap.max_send_sge = 1;
    a.cap.max_recv_sge = 1;
    ibv_qp* q = ibv_create_qp(pd_, &a);
    if (!q) throw ProbeError("verbs: ibv_create_qp failed");
    ibv_qp_attr m{};
    m.qp_state = IBV_QPS_INIT;
    m.port_num = static_cast<uint8_t>(opt_.port);
    m.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    if (ibv_modify_qp(q, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
      throw ProbeError("verbs: QP to INIT failed");
    return q;
  }
  void connect_qp(ibv_qp* q, uint32_t remote_qpn, uint16_t lid, const ibv_gid& gid) {
    ibv_qp_attr m{};
    m.qp_state = IBV_QPS_RTR;
    m.path_mtu = port_.active_mtu;
    m.dest_qp_num = remote_qpn;
    m.rq_psn = remote_qpn & 0xffffff;
    m.max_dest_rd_atomic = 1;
    m.min_rnr_timer = 12;
    m.ah_attr.dlid = lid;
    m.ah_attr.port_num = static_cast<uint8_t>(opt_.port);
    if (opt_.gid_index >= 0) {
      m.ah_attr.is_global = 1;
      m.ah_attr.grh.dgid = gid;
      m.ah_attr.grh.sgid_index = static_cast<uint8_t>(opt_.gid_index);
      m.ah_attr.grh.hop_limit = 64;
    }
    if (ibv_modify_qp(q, &m,
                      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                          IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
      throw ProbeError("verbs: QP to RTR failed (wrong --gid-index for RoCE?)");
    m = {};
    m.qp_state = IBV_QPS_RTS;
    m.timeout = 14;  // 4.096 µs · 2^14 ≈ 67 ms per retry: a dead peer errors out in < 1 s
    m.retry_cnt = 7;
    m.rnr_retry = 7;
    m.sq_psn = q->qp_num & 0xffffff;
    m.max_rd_atomic = 1;
    if (ibv_modify_qp(q, &m,
                      IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                          IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
      throw ProbeError("verbs: QP to RTS failed");
  }

  VerbsOptions opt_;
  int rank_, nranks_;
  ibv_device** list_ = nullptr;
  std::string dev_name_;
  ibv_context* ctx_ = nullptr;
  ibv_pd* pd_ = nullptr;
  ibv_mr* mr_ = nullptr;
  ibv_cq* cq_ = nullptr;
  ibv_port_attr port_{};
  size_t bytes_ = 0;
  char* buf_ = nullptr;
  ibv_sge sge_{};
  std::vector<ibv_qp*> qps_;  // [endpoint][peer], null for self
  std::vector<uint32_t> rkey_;
  std::vector<uint64_t> raddr_;
};

}  // namespace

void verbs_check_device(const VerbsOptions& opt) {
  if (opt.qp == "srd") {
    srd_check_device(opt);
    return;
  }
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  std::string names;
  for (int i = 0; i < n; ++i) names += std::string(i ? ", " : "") + ibv_get_device_name(list[i]);
  bool found = list && find_device(opt, list, n) != nullptr;
  if (list) ibv_free_device_list(list);
  if (n == 0)
    throw NoDeviceError(
        "verbs: no RDMA device found on this host (ibv_get_device_list returned none; check "
        "`ibv_devices`, the NIC driver and rdma-core's provider library)");
  if (!found)
    throw NoDeviceError("verbs: no RDMA device named '" + opt.device + "' (found: " + names + ")");
}

std::unique_ptr<Transport> make_verbs_transport(const VerbsOptions& opt, Bootstrap& boot) {
  if (opt.qp == "srd") return make_srd_transport(opt, boot);
  return std::make_unique<VerbsTransport>(opt, boot);
}

#endif

}  // namespace pdsim::pdcal

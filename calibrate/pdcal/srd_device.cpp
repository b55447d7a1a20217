#include "calibrate/pdcal/srd_device.hpp"

#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {

#ifndef PDCAL_HAVE_EFADV

void srd_check_device(const VerbsOptions&) {
  throw NoDeviceError(
      "verbs: this pdcal was built without efadv (rdma-core's infiniband/efadv.h and libefa), so "
      "no SRD QPs; on EFA use --api fabric --provider efa");
}

#else

namespace {

// rdma-core ≥ v45 names it EFADV_DEVICE_ATTR_CAPS_RDMA_WRITE; older headers (Debian 12 ships
// v44) lack the name but newer devices and kernels set the bit.
constexpr uint32_t kCapsRdmaWrite = 1u << 3;

bool is_efa(ibv_context* ctx, efadv_device_attr* attr) {
  efadv_device_attr a{};
  const bool ok = efadv_query_device(ctx, &a, sizeof a) == 0;
  if (ok && attr) *attr = a;
  return ok;
}

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

SrdDevice::SrdDevice(const std::string& wanted) {
  int n = 0;
  list_ = ibv_get_device_list(&n);
  for (int i = 0; list_ && i < n && !ctx_; ++i) {
    if (!wanted.empty() && wanted != ibv_get_device_name(list_[i])) continue;
    ibv_context* c = ibv_open_device(list_[i]);
    efadv_device_attr a{};
    if (c && is_efa(c, &a)) {
      ctx_ = c;
      name_ = ibv_get_device_name(list_[i]);
      rdma_write_ = (a.device_caps & kCapsRdmaWrite) != 0;
      rnr_retry_ = (a.device_caps & EFADV_DEVICE_ATTR_CAPS_RNR_RETRY) != 0;
      max_rdma_ = a.max_rdma_size;
    } else if (c) {
      ibv_close_device(c);
    }
  }
  if (!ctx_) {
    if (list_) ibv_free_device_list(list_);
    throw NoDeviceError("srd: no EFA device");
  }
}

SrdDevice::~SrdDevice() {
  ibv_close_device(ctx_);
  ibv_free_device_list(list_);
}

ibv_qp* create_srd_qp(const SrdDevice& dev, ibv_pd* pd, ibv_cq* cq, int port, uint32_t max_send_wr,
                      uint32_t max_recv_wr) {
  ibv_qp_init_attr_ex a{};
  a.qp_type = IBV_QPT_DRIVER;
  a.send_cq = cq;
  a.recv_cq = cq;
  a.cap.max_send_wr = max_send_wr;
  a.cap.max_recv_wr = max_recv_wr;
  a.cap.max_send_sge = 2;
  a.cap.max_recv_sge = 1;
  a.pd = pd;
  a.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  a.send_ops_flags = IBV_QP_EX_WITH_SEND | (dev.rdma_write() ? IBV_QP_EX_WITH_RDMA_WRITE : 0);
  efadv_qp_init_attr e{};
  e.driver_qp_type = EFADV_QP_DRIVER_TYPE_SRD;
  ibv_qp* q = efadv_create_qp_ex(dev.context(), &a, &e, sizeof e);
  if (!q) throw ProbeError("srd: efadv_create_qp_ex (SRD) failed");
  ibv_qp_attr m{};
  m.qp_state = IBV_QPS_INIT;
  m.pkey_index = 0;
  m.port_num = static_cast<uint8_t>(port);
  m.qkey = kSrdQkey;
  if (ibv_modify_qp(q, &m, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
    throw ProbeError("srd: QP to INIT failed");
  m = {};
  m.qp_state = IBV_QPS_RTR;
  if (ibv_modify_qp(q, &m, IBV_QP_STATE)) throw ProbeError("srd: QP to RTR failed");
  m = {};
  m.qp_state = IBV_QPS_RTS;
  m.sq_psn = 0;
  int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
  if (dev.rnr_retry()) {
    m.rnr_retry = 7;  // a receiver short of posted buffers is retried, not an error
    mask |= IBV_QP_RNR_RETRY;
  }
  if (ibv_modify_qp(q, &m, mask)) throw ProbeError("srd: QP to RTS failed");
  return q;
}

#endif

}  // namespace pdsim::pdcal

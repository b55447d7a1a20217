#pragma once
// The EFA device under the SRD transport: finding one (only EFA answers efadv_query_device),
// what it offers (RDMA write, RNR retry, the largest write), and SRD QPs brought up to RTS.
#include "calibrate/pdcal/verbs_transport.hpp"

#ifdef PDCAL_HAVE_EFADV
#include <infiniband/efadv.h>
#include <infiniband/verbs.h>

#include <cstdint>
#include <string>
#endif

namespace pdsim::pdcal {

// NoDeviceError unless an EFA device (one that answers efadv_query_device) is present.
void srd_check_device(const VerbsOptions& opt);

#ifdef PDCAL_HAVE_EFADV

// The Q_Key every SRD QP is created with; each send names it again with the peer's address.
constexpr uint32_t kSrdQkey = 0x11111111;

// The first EFA device, or the one named `wanted`, opened; NoDeviceError when there is none.
class SrdDevice {
 public:
  explicit SrdDevice(const std::string& wanted);
  ~SrdDevice();
  SrdDevice(const SrdDevice&) = delete;
  SrdDevice& operator=(const SrdDevice&) = delete;

  ibv_context* context() const { return ctx_; }
  const std::string& name() const { return name_; }
  bool rdma_write() const { return rdma_write_; }
  bool rnr_retry() const { return rnr_retry_; }
  uint32_t max_rdma() const { return max_rdma_; }

 private:
  ibv_device** list_ = nullptr;
  ibv_context* ctx_ = nullptr;
  std::string name_;
  bool rdma_write_ = false, rnr_retry_ = false;
  uint32_t max_rdma_ = 0;
};

// An SRD QP whose sends and receives complete on `cq`, in RTS on `port`, able to write when the
// device can; ProbeError when a step fails.
ibv_qp* create_srd_qp(const SrdDevice& dev, ibv_pd* pd, ibv_cq* cq, int port, uint32_t max_send_wr,
                      uint32_t max_recv_wr);

#endif

}  // namespace pdsim::pdcal

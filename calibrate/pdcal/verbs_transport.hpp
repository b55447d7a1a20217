#pragma once
// Transport over libibverbs: one RC QP per peer and endpoint (ConnectX / RoCE / InfiniBand), or
// with qp = "srd" the EFA SRD transport of srd_transport.hpp. RC messages
// are matched per QP in posting order (the probes post receives in the order peers send), so
// the tag is carried only as immediate data and checked.
#include <memory>
#include <string>

#include "calibrate/pdcal/bootstrap.hpp"
#include "calibrate/pdcal/transport.hpp"

namespace pdsim::pdcal {

struct VerbsOptions {
  std::string device;  // ibv device name; empty: the first one
  int port = 1;
  int gid_index = -1;     // RoCE: GID table index (-1: use LID, InfiniBand)
  std::string qp = "rc";  // "rc" or "srd"
  int endpoints = 1;
  size_t buffer_bytes = 0;
  double timeout_s = 10;
};

// Throws NoDeviceError with a clear message when there is no usable RDMA device (or the
// requested one is absent; for "srd": no EFA device) — called before bootstrapping so that a
// lone rank fails fast. make_verbs_transport builds the RC or the SRD transport.
void verbs_check_device(const VerbsOptions& opt);
std::unique_ptr<Transport> make_verbs_transport(const VerbsOptions& opt, Bootstrap& boot);

}  // namespace pdsim::pdcal

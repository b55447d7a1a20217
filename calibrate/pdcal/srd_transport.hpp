#pragma once
// Transport over libibverbs + efadv with SRD QPs (AWS EFA, `--api verbs --qp srd`): no libfabric
// in between, so the probes see what a CPU proxy that drives the EFA device directly (UCCL-EP)
// sees.
//
// SRD is connectionless and reliable but unordered: one QP per endpoint reaches every peer
// through an address handle (peer GID, QP number, Q_Key), and a message may overtake an earlier
// one. Two-sided sends are limited to one packet (the port's max_msg_sz, about 8 KiB), so a
// message is cut into segments, each sent with a 24-byte header {tag, source rank, segment,
// total bytes} as a second SGE (payload zero-copy from the registered buffer). Receives land in
// a ring of pre-posted bounce buffers and are matched in software on (source, tag), segments
// placed by index, early arrivals kept aside — what libfabric's efa provider does too, so the
// copy out of the bounce buffer is part of the measured latency (srd_matching.hpp; the device
// and its QPs: srd_device.hpp). One-sided writes use
// ibv_wr_rdma_write on the extended QP when the device reports RDMA write (efadv device_caps);
// otherwise bandwidth/scatter/a2a-loop stop with a clear error (pingpong still runs).
#include <memory>

#include "calibrate/pdcal/bootstrap.hpp"
#include "calibrate/pdcal/transport.hpp"
#include "calibrate/pdcal/verbs_transport.hpp"

namespace pdsim::pdcal {

// Checks for the device first (srd_check_device, srd_device.hpp): NoDeviceError without EFA.
std::unique_ptr<Transport> make_srd_transport(const VerbsOptions& opt, Bootstrap& boot);

}  // namespace pdsim::pdcal

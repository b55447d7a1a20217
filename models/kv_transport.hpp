#pragma once
// A KV-cache transfer engine's transport when it is not RDMA (models/catalog/kv_transport): today
// Mooncake's TCP transport, which SGLang's mooncake backend uses with MOONCAKE_PROTOCOL=tcp,
// MC_FORCE_TCP=1, or on EFA without MOONCAKE_PROTOCOL=efa. Its rate is a host-stack figure (one
// asio I/O thread per process, GPU memory staged through host buffers 64 KiB at a time), not a
// NIC's, so it lives apart from the fabric profiles.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct KvTransport {
  std::string name;      // "mooncake-tcp"
  std::string protocol;  // "tcp"
  // Achieved bytes/s of one rank's transfer engine, with the published spread around it.
  double rate_GBps = 0, rate_low_GBps = 0, rate_high_GBps = 0;
  // "per_rank": the transfers in flight on a rank share its engine's rate (one I/O thread per
  // process); "per_transfer": each transfer gets the whole rate.
  std::string sharing;
  // The lowest concurrency at which a published run of this transport failed (0 = none known),
  // and where that was seen: beyond it a prediction leaves what was measured.
  int failed_above_concurrency = 0;
  std::string failure_seen;
  Json provenance;
};

KvTransport load_kv_transport(const std::string& name_or_path, const std::string& from_file = "",
                              const std::string& field = "kv_transport");

}  // namespace pdsim

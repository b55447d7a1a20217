#pragma once
// Failures during a probe that are not input errors: a peer died or hung (timeout), the fabric
// reported an error, or no device exists. main() keeps the rows measured so far and exits
// non-zero with the message.
#include <stdexcept>
#include <string>

namespace pdsim::pdcal {

class ProbeError : public std::runtime_error {
 public:
  explicit ProbeError(const std::string& what) : std::runtime_error(what) {}
};

// No usable device/provider on this host (e.g. no RDMA NIC for the verbs probes).
class NoDeviceError : public ProbeError {
 public:
  explicit NoDeviceError(const std::string& what) : ProbeError(what) {}
};

}  // namespace pdsim::pdcal

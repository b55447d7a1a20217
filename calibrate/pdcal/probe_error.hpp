#pragma once
// Failures during a probe that are not input errors: a peer died or hung (timeout), the fabric
// reported an error, or no device exists. main() keeps the rows measured so far and exits 3.
// PeerMessageError is the exception: a bootstrap message that breaks the protocol is bad input
// (from the peer rather than the command line) and exits 2.
#include <stdexcept>
#include <string>
#include <string_view>

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

// A peer's bootstrap message that fails validation: not a pdcal peer, another version, or
// hostile. `message` names the message (hello, frame, parameters, ...), `from` the sender;
// anything quoted from the peer must already be escaped (peer_text.hpp).
class PeerMessageError : public ProbeError {
 public:
  PeerMessageError(std::string_view message, std::string_view from, std::string_view field,
                   std::string_view expected)
      : ProbeError("bootstrap: peer message '" + std::string(message) + "' from " +
                   std::string(from) + ": field '" + std::string(field) +
                   "': " + std::string(expected)) {}
};

}  // namespace pdsim::pdcal

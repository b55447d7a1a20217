#pragma once
// Address blobs the RDMA transports exchange through the bootstrap (LID, GID, rkey, buffer
// address, QP numbers): raw fields appended in order and read back in the same order.
#include <cstddef>
#include <cstring>
#include <string>

#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {

inline void blob_put(std::string& s, const void* p, size_t n) {
  s.append(static_cast<const char*>(p), n);
}

// The next field of type T at `pos` (advanced past it); `transport` names the blob in the error
// when the peer's blob is too short.
template <class T>
T blob_get(const std::string& s, size_t& pos, const char* transport) {
  if (pos > s.size() || sizeof(T) > s.size() - pos)
    throw PeerMessageError(std::string(transport) + " address", "a peer", "length",
                           "expected at least " + std::to_string(pos + sizeof(T)) + " bytes, got " +
                               std::to_string(s.size()) + " (truncated)");
  T v;
  std::memcpy(&v, s.data() + pos, sizeof v);
  pos += sizeof v;
  return v;
}

}  // namespace pdsim::pdcal

#pragma once
// The address blob FabricTransport exchanges through the bootstrap, per endpoint: uint64 name
// length, the endpoint name (fi_getname), uint64 MR key, uint64 buffer address. A peer's blob is
// checked against this rank's own endpoints before libfabric sees any of it: fi_av_insert reads
// as many name bytes as the provider's address format holds, so a shorter name would be read
// past its end, and a longer one is not an address of this provider.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pdsim::pdcal {

// fi_getname's buffer in FabricTransport: no provider's address is longer.
inline constexpr size_t kMaxFabricNameBytes = 256;

struct FabricEpAddress {
  std::string name;
  uint64_t key = 0, base = 0;
};

std::string encode_fabric_address(const std::vector<FabricEpAddress>& eps);
// One entry per element of `name_lengths` (this rank's own name lengths, which every rank of the
// same provider shares), each name exactly that long, nothing after the last; else a
// PeerMessageError naming `from`.
std::vector<FabricEpAddress> decode_fabric_address(std::string_view blob,
                                                   std::span<const size_t> name_lengths,
                                                   std::string_view from);

}  // namespace pdsim::pdcal

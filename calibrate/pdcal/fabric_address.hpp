#pragma once
// The address blob FabricTransport exchanges through the bootstrap, per endpoint: uint64 name
// length, the endpoint name (fi_getname), uint64 MR key, uint64 buffer address. A peer's blob is
// checked against this rank's own endpoints before libfabric sees any of it. For a binary address
// format fi_av_insert reads as many name bytes as the format holds, so a peer's name must be
// exactly as long as this rank's: a shorter one would be read past its end, a longer one is not
// an address of this provider. A string format (FI_ADDR_STR, e.g. shm's "fi_shm://<pid>") varies
// in length from rank to rank, so there the name need only fit fi_getname's buffer; fi_av_insert
// reads it up to its NUL, which std::string always stores after the bytes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pdsim::pdcal {

// fi_getname's buffer in FabricTransport: no provider's address is longer.
inline constexpr size_t kMaxFabricNameBytes = 256;

// What a peer's endpoint name must look like: this rank's own name length and whether the
// provider's address format is a string (then any length up to kMaxFabricNameBytes).
struct FabricNameRule {
  size_t own_length = 0;
  bool string_format = false;
};

struct FabricEpAddress {
  std::string name;
  uint64_t key = 0, base = 0;
};

std::string encode_fabric_address(const std::vector<FabricEpAddress>& eps);
// One entry per element of `rules` (this rank's endpoints), each name as its rule allows,
// nothing after the last; else a PeerMessageError naming `from`.
std::vector<FabricEpAddress> decode_fabric_address(std::string_view blob,
                                                   std::span<const FabricNameRule> rules,
                                                   std::string_view from);

}  // namespace pdsim::pdcal

#include "sim/sweep/stable_hash.hpp"

#include <cstdint>

namespace pdsim {

std::string stable_hash_hex(std::string_view text) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64-bit offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;  // FNV-1a 64-bit prime
  }
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = digits[h & 0xf];
  return out;
}

}  // namespace pdsim

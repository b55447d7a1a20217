#include "sim/core/stable_hash.hpp"

namespace pdsim {

std::string stable_hash_hex(std::string_view text) {
  uint64_t h = fnv1a_64(text);
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = digits[h & 0xf];
  return out;
}

}  // namespace pdsim

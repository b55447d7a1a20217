#include "calibrate/pdcal/peer_text.hpp"

#include <cstdint>

namespace pdsim::pdcal {
namespace {

// Length of the printable UTF-8 sequence at s[i], or 0 (RFC 3629 table 3-7: no overlongs, no
// surrogates, nothing above U+10FFFF; C1 controls U+0080..U+009F are not printable).
size_t sequence_length(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t b = at(0);
  if (b >= 0x20 && b <= 0x7e) return 1;
  size_t len = 0;
  uint8_t lo = 0x80, hi = 0xbf;  // range of the second byte
  if (b == 0xc2) {
    len = 2, lo = 0xa0;
  } else if (b >= 0xc3 && b <= 0xdf) {
    len = 2;
  } else if (b == 0xe0) {
    len = 3, lo = 0xa0;
  } else if ((b >= 0xe1 && b <= 0xec) || b == 0xee || b == 0xef) {
    len = 3;
  } else if (b == 0xed) {
    len = 3, hi = 0x9f;
  } else if (b == 0xf0) {
    len = 4, lo = 0x90;
  } else if (b >= 0xf1 && b <= 0xf3) {
    len = 4;
  } else if (b == 0xf4) {
    len = 4, hi = 0x8f;
  } else {
    return 0;
  }
  if (i + len > s.size() || at(1) < lo || at(1) > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if (at(k) < 0x80 || at(k) > 0xbf) return 0;
  return len;
}

}  // namespace

std::optional<size_t> first_unprintable(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

std::string escaped_excerpt(std::string_view s, size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  const size_t shown = s.size() < max_bytes ? s.size() : max_bytes;
  for (size_t i = 0; i < shown; ++i) {
    const auto b = static_cast<uint8_t>(s[i]);
    if (b == '"' || b == '\\') {
      out += '\\';
      out += static_cast<char>(b);
    } else if (b >= 0x20 && b <= 0x7e) {
      out += static_cast<char>(b);
    } else {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xf];
    }
  }
  out += '"';
  if (shown < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace pdsim::pdcal

#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one (overlongs,
// surrogates and code points above U+10FFFF included, as the JSON parser rejects them too).
size_t utf8_len(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = b(i);
  size_t n = 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

size_t invalid_utf8_offset(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t n = utf8_len(text, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

std::string excerpt(std::string_view text, size_t max_bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t n = 1;
    if (c >= 0x80) n = utf8_len(text, i);
    if (i + (n == 0 ? 1 : n) > max_bytes) break;
    if (n >= 2) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    if (c < 0x20 || c == 0x7f || n == 0) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  if (i < text.size()) out += "\xe2\x80\xa6 (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace pdsim

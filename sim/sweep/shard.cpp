#include "sim/sweep/shard.hpp"

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {
bool parse_int(const std::string& s, int& out) {
  if (s.empty() || s.size() > 9) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}
}  // namespace

std::string Shard::suffix() const {
  return count == 1 ? "" : ".shard-" + std::to_string(index) + "-of-" + std::to_string(count);
}

Shard parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_int(text.substr(0, slash), s.index) ||
      !parse_int(text.substr(slash + 1), s.count) || s.count < 1 || s.index >= s.count)
    throw InputError("--shard", "",
                     "expected i/N with 0 <= i < N (e.g. 0/4), got '" + excerpt(text) + "'");
  return s;
}

}  // namespace pdsim

#pragma once
// Fixed-width columns for the plain-text reports (one definition for every table writer).
#include <cstddef>
#include <string>

namespace pdsim {

// s padded with spaces to w characters: on the right when left_align, else on the left. Text of
// w characters or more is returned whole, never cut.
inline std::string pad(const std::string& s, size_t w, bool left_align = false) {
  if (s.size() >= w) return s;
  return left_align ? s + std::string(w - s.size(), ' ') : std::string(w - s.size(), ' ') + s;
}

// A left-aligned column of w characters that always ends in a space, so that an entry as wide as
// the column never runs into the next one.
inline std::string column(const std::string& s, size_t w) {
  return s.size() >= w ? s + " " : pad(s, w, true);
}

}  // namespace pdsim

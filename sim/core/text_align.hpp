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

// `text` broken at spaces into lines of at most `width` characters (a longer word stays whole),
// each starting with `indent`, each ending in a newline.
inline std::string wrap(const std::string& text, size_t width, const std::string& indent) {
  std::string out, line;
  size_t i = 0;
  while (i < text.size()) {
    const size_t sp = text.find(' ', i);
    const std::string word = text.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
    i = sp == std::string::npos ? text.size() : sp + 1;
    if (word.empty()) continue;
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace pdsim

#pragma once
// Input text quoted in an error message: at most a short prefix (a 52 MB token must not become a
// 52 MB message) with control and non-UTF-8 bytes escaped, so the message stays one printable
// line whatever the file held.
#include <cstddef>
#include <string>
#include <string_view>

namespace pdsim {

inline constexpr size_t kExcerptBytes = 80;

// The first max_bytes bytes (never cutting a UTF-8 character), bytes < 0x20, 0x7f and invalid
// UTF-8 as \xNN, then "… (N bytes)" when cut. Printable UTF-8 text passes unchanged; with
// max_bytes = npos nothing is cut (escaping only, e.g. to store a path as a JSON string).
std::string excerpt(std::string_view text, size_t max_bytes = kExcerptBytes);

// Offset of the first byte that does not start a valid UTF-8 sequence, or npos when the whole
// text is UTF-8 (what a JSON output can hold).
size_t invalid_utf8_offset(std::string_view text);

}  // namespace pdsim

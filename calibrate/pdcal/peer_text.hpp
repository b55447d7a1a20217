#pragma once
// Bytes from a peer on their way into error messages and JSON: a check that they are printable
// UTF-8, and an ASCII-only, truncated rendering of arbitrary bytes, so that no raw peer byte
// reaches the terminal or the JSON writer (which throws on invalid UTF-8).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pdsim::pdcal {

// Offset of the first byte that does not belong to printable UTF-8 (C0/C1 controls, DEL, a
// malformed, overlong, surrogate or truncated sequence); nullopt when there is none.
std::optional<size_t> first_unprintable(std::string_view s);

// `s` in double quotes: `"` and `\` backslash-escaped, bytes outside 0x20..0x7e as \xNN; at most
// `max_bytes` bytes of `s`, then `... (N bytes)`. Always printable ASCII.
std::string escaped_excerpt(std::string_view s, size_t max_bytes = 64);

}  // namespace pdsim::pdcal

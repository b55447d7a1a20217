#pragma once
// Bounded reading of user input: regular files only, at most kMaxInputBytes, so /dev/zero, a
// FIFO or a directory given as an input fails at once with one clear message instead of
// exhausting memory, blocking forever, or parsing as empty.
#include <cstdint>
#include <string>

namespace pdsim {

// 1 GiB: the largest measured-data files (bench_serving JSONL of a long sweep) are a few hundred
// MB; anything larger is not an input pdsim was meant to load into memory.
inline constexpr uint64_t kMaxInputBytes = uint64_t{1} << 30;

// Not a regular file, too large, or cannot be opened (with the errno text) → InputError naming
// the path; a read failure after a successful open (EIO, ...) → IoError.
std::string read_file(const std::string& path, uint64_t max_bytes = kMaxInputBytes);

}  // namespace pdsim

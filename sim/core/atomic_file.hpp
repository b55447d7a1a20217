#pragma once
// Outputs are never half-written: content goes to a temporary file in the target directory,
// which is then renamed over the destination (atomic on POSIX file systems).
#include <string>

namespace pdsim {

// Creates parent directories as needed; throws InputError naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& content);
std::string read_file(const std::string& path);  // InputError if unreadable

}  // namespace pdsim

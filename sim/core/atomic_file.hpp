#pragma once
// Outputs are never half-written: content goes to a temporary file in the target directory,
// is fsync'ed and closed (both checked), then renamed over the destination (atomic on POSIX file
// systems), and the directory is fsync'ed so the rename survives a crash.
#include <string>

#include "sim/core/read_file.hpp"  // read_file moved there; kept for existing callers

namespace pdsim {

// Creates parent directories as needed; throws IoError naming the path and errno on failure, and
// InputError when `path` exists as anything but a regular file (a symbolic link, device, FIFO,
// socket or directory is never replaced).
void write_file_atomic(const std::string& path, const std::string& content);

// Writes all of `content` to `fd` (retrying short writes and EINTR); IoError naming `path` and
// errno on failure.
void write_all(int fd, const std::string& content, const std::string& path);

// fsync of a file or directory by path; IoError on failure.
void fsync_path(const std::string& path);

}  // namespace pdsim

#include "sim/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "sim/core/error.hpp"

namespace pdsim {
void write_all(int fd, const std::string& content, const std::string& path) {
  const char* p = content.data();
  size_t n = content.size();
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw IoError(path, "write failed", w < 0 ? errno : ENOSPC);
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void fsync_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path, "cannot open to fsync", errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // A directory on a file system without directory fsync reports EINVAL: nothing to flush.
  if (rc != 0 && err != EINVAL) throw IoError(path, "fsync failed", err);
}

void write_file_atomic(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  // The rename replaces whatever has the name: only a regular file may be replaced, never a
  // symbolic link, device (-o /dev/null as root), FIFO, socket or directory.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(path, "",
                     "a regular file or a new name: it exists as " +
                         std::string(S_ISLNK(st.st_mode)    ? "a symbolic link"
                                     : S_ISDIR(st.st_mode)  ? "a directory"
                                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                                     : S_ISSOCK(st.st_mode) ? "a socket"
                                                            : "a device") +
                         ", which pdsim does not replace");
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir, "cannot create directory", ec.value());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) throw IoError(path, "cannot open for writing", errno);
  try {
    write_all(fd, content, path);
    if (::fsync(fd) != 0) throw IoError(path, "fsync failed", errno);
  } catch (...) {
    ::close(fd);
    std::remove(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw IoError(path, "close failed", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw IoError(path, "cannot rename the temporary file into place", err);
  }
  fsync_path(dir);
}

}  // namespace pdsim

#include "sim/core/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "sim/core/error.hpp"

namespace pdsim {
namespace {
// Closes the descriptor on every path out, including a throw.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

std::string read_file(const std::string& path, uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever before fstat.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) {
    const int err = errno;
    throw InputError(path, "", std::string("cannot open file for reading: ") + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw IoError(path, "cannot stat", errno);
  if (S_ISDIR(st.st_mode)) throw InputError(path, "", "expected a regular file, got a directory");
  if (!S_ISREG(st.st_mode))
    throw InputError(path, "", "expected a regular file, got a device, FIFO or socket");
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes)
    throw InputError(path, "",
                     "expected a file of at most " + std::to_string(max_bytes) + " bytes, got " +
                         std::to_string(size) + " bytes");
  std::string out(size, '\0');
  size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::read(f.fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path, "read failed", errno);
    if (n == 0) break;  // shrank since fstat
    got += static_cast<size_t>(n);
  }
  out.resize(got);
  // It may also have grown since fstat (or be a /proc file that reports size 0): read the rest,
  // still bounded. A small probe first, so the common case (nothing more) allocates nothing;
  // then a 64 KiB buffer on the heap: files are also read inside simulation actors, whose stacks
  // are 64 KiB (sim/serve/actors/simulation.cpp).
  char probe[256];
  ssize_t first = 0;
  do first = ::read(f.fd, probe, sizeof probe);
  while (first < 0 && errno == EINTR);
  if (first < 0) throw IoError(path, "read failed", errno);
  if (first == 0) return out;
  if (out.size() + static_cast<uint64_t>(first) > max_bytes)
    throw InputError(path, "",
                     "expected a file of at most " + std::to_string(max_bytes) +
                         " bytes, got more (it grew while being read)");
  out.append(probe, static_cast<size_t>(first));
  std::vector<char> buf(size_t{1} << 16);
  while (true) {
    const ssize_t n = ::read(f.fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path, "read failed", errno);
    if (n == 0) break;
    if (out.size() + static_cast<uint64_t>(n) > max_bytes)
      throw InputError(path, "",
                       "expected a file of at most " + std::to_string(max_bytes) +
                           " bytes, got more (it grew while being read)");
    out.append(buf.data(), static_cast<size_t>(n));
  }
  return out;
}

}  // namespace pdsim

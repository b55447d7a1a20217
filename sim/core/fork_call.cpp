#include "sim/core/fork_call.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace pdsim {
namespace {
void write_all(int fd, const uint8_t* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ::_exit(4);
    p += w;
    n -= static_cast<size_t>(w);
  }
}
}  // namespace

Json call_in_child(const std::function<Json()>& f) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with its sweep worker
    if (::getppid() != parent) ::_exit(5);
    Json msg;
    try {
      msg = Json{{"ok", f()}};
    } catch (const std::exception& e) {
      msg = Json{{"error", e.what()}};
    }
    const std::vector<uint8_t> bytes = Json::to_cbor(msg);
    write_all(fds[1], bytes.data(), bytes.size());
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::vector<uint8_t> buf;
  uint8_t tmp[1 << 16];
  while (true) {
    const ssize_t r = ::read(fds[0], tmp, sizeof tmp);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    buf.insert(buf.end(), tmp, tmp + r);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw std::runtime_error("simulation process died with signal " +
                             std::to_string(WTERMSIG(status)));
  const Json msg = Json::from_cbor(buf, true, false);
  if (msg.is_discarded() || !msg.is_object())
    throw std::runtime_error("simulation process returned no result");
  if (msg.contains("error")) throw std::runtime_error(msg["error"].get<std::string>());
  return msg.at("ok");
}

}  // namespace pdsim

#include "calibrate/forked_tasks.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace pdsim {
namespace {

struct Running {
  size_t task = 0;
  pid_t pid = -1;
  int fd = -1;
  std::vector<uint8_t> bytes;
};

void write_all(int fd, const std::vector<uint8_t>& b) {
  size_t off = 0;
  while (off < b.size()) {
    const ssize_t w = ::write(fd, b.data() + off, b.size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ::_exit(4);
    off += static_cast<size_t>(w);
  }
}

[[noreturn]] void child(const std::function<Json()>& task, int fd) {
  Json msg;
  int code = 0;
  try {
    msg = Json{{"ok", task()}};
  } catch (const std::exception& e) {
    msg = Json{{"error", e.what()}};
    code = 3;
  }
  write_all(fd, Json::to_cbor(msg));
  ::close(fd);
  ::_exit(code);
}

Running start(const std::function<Json()>& task, size_t index) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    child(task, fds[1]);
  }
  ::close(fds[1]);
  return Running{index, pid, fds[0], {}};
}

TaskOutcome finish(Running& r) {
  ::close(r.fd);
  int status = 0;
  while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  TaskOutcome out;
  if (WIFSIGNALED(status)) {
    out.error = "worker process died with signal " + std::to_string(WTERMSIG(status));
    return out;
  }
  const Json msg = Json::from_cbor(r.bytes, true, false);
  if (msg.is_discarded() || !msg.is_object()) {
    out.error = "worker process returned no result";
  } else if (msg.contains("error")) {
    out.error = msg["error"].get<std::string>();
  } else {
    out.ok = true;
    out.result = msg.at("ok");
  }
  return out;
}

}  // namespace

std::vector<TaskOutcome> run_forked_tasks(const std::vector<std::function<Json()>>& tasks,
                                          int jobs) {
  if (jobs < 1) jobs = 1;
  std::vector<TaskOutcome> out(tasks.size());
  std::vector<Running> running;
  size_t next = 0;
  uint8_t buf[1 << 16];
  while (next < tasks.size() || !running.empty()) {
    while (next < tasks.size() && running.size() < static_cast<size_t>(jobs)) {
      running.push_back(start(tasks[next], next));
      ++next;
    }
    std::vector<pollfd> pfds;
    for (const auto& r : running) pfds.push_back({r.fd, POLLIN, 0});
    if (::poll(pfds.data(), pfds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    // Drain ready pipes; a child that closed its end (EOF) is reaped and its slot freed.
    for (size_t i = pfds.size(); i-- > 0;) {
      if (pfds[i].revents == 0) continue;
      const ssize_t n = ::read(running[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        running[i].bytes.insert(running[i].bytes.end(), buf, buf + n);
        continue;
      }
      out[running[i].task] = finish(running[i]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return out;
}

}  // namespace pdsim

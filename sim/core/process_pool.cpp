#include "sim/core/process_pool.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "sim/core/exit_status.hpp"
#include "sim/core/progress.hpp"

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

// A child's message: uint64 n, n bytes of CBOR, then the bytes of the result's top-level binary
// members, which the CBOR holds as null and lists in its "tail" member as [key, offset, size].
// nlohmann's CBOR reader takes a byte string one byte at a time, too slow for a run's MBs of
// chunk times (sim/serve/entities/results_transport.hpp); raw after the CBOR they are one copy.
std::vector<uint8_t> encode_message(Json& msg) {
  std::vector<uint8_t> tail;
  Json index = Json::array();
  if (msg.contains("ok") && msg["ok"].is_object())
    for (auto& [key, v] : msg["ok"].items()) {
      if (!v.is_binary()) continue;
      const auto& b = v.get_binary();
      index.push_back({key, tail.size(), b.size()});
      tail.insert(tail.end(), b.begin(), b.end());
      v = nullptr;
    }
  if (!index.empty()) msg["tail"] = std::move(index);
  const std::vector<uint8_t> cbor = Json::to_cbor(msg);
  const uint64_t n = cbor.size();
  std::vector<uint8_t> out(sizeof n);
  std::memcpy(out.data(), &n, sizeof n);
  out.insert(out.end(), cbor.begin(), cbor.end());
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

// The message back, or a discarded Json when it is malformed in any way.
Json decode_message(const std::vector<uint8_t>& bytes) {
  uint64_t n = 0;
  if (bytes.size() < sizeof n) return Json::value_t::discarded;
  std::memcpy(&n, bytes.data(), sizeof n);
  if (n > bytes.size() - sizeof n) return Json::value_t::discarded;
  const auto cbor = bytes.begin() + sizeof n;
  Json msg = Json::from_cbor(cbor, cbor + static_cast<std::ptrdiff_t>(n), true, false);
  if (msg.is_discarded() || !msg.contains("tail")) return msg;
  const size_t tail_at = sizeof n + n, tail_size = bytes.size() - tail_at;
  const Json& index = msg["tail"];
  if (!index.is_array() || !msg.contains("ok") || !msg["ok"].is_object())
    return Json::value_t::discarded;
  for (const Json& e : index) {
    if (!e.is_array() || e.size() != 3 || !e[0].is_string() || !e[1].is_number_unsigned() ||
        !e[2].is_number_unsigned() || !msg["ok"].contains(e[0].get<std::string>()))
      return Json::value_t::discarded;
    const uint64_t offset = e[1].get<uint64_t>(), size = e[2].get<uint64_t>();
    if (offset > tail_size || size > tail_size - offset) return Json::value_t::discarded;
    const auto from = bytes.begin() + static_cast<std::ptrdiff_t>(tail_at + offset);
    msg["ok"][e[0].get<std::string>()] =
        Json::binary(std::vector<uint8_t>(from, from + static_cast<std::ptrdiff_t>(size)));
  }
  msg.erase("tail");
  return msg;
}

[[noreturn]] void child(const std::function<Json(size_t)>& task, size_t index, int fd,
                        pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(5);  // the parent died before the line above
  Progress::forget_in_child();            // only the process that opened it draws
  Json msg = Json::object();
  int code = 0;
  try {
    msg["ok"] = task(index);  // moved in: a run's result is MBs of JSON, not copied
  } catch (...) {
    const ExitStatus st = classify_current_exception();
    msg = Json{{"error", st.message}, {"code", st.code}};
    code = 3;
  }
  std::vector<uint8_t> bytes;
  try {
    bytes = encode_message(msg);
  } catch (...) {  // e.g. a result too large for memory: the parent reports "no result"
    ::_exit(6);
  }
  write_all(fd, bytes);
  ::close(fd);
  ::_exit(code);  // no destructors: the child's state is the parent's copy
}

Running start(const std::function<Json(size_t)>& task, size_t index) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  std::fflush(nullptr);  // buffered output would otherwise be written by the child too
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(task, index, fds[1], parent);
  }
  ::close(fds[1]);
  return Running{index, pid, fds[0], {}};
}

TaskOutcome finish(Running& r, const std::string& noun) {
  ::close(r.fd);
  int status = 0;
  while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  TaskOutcome out;
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    out.error = noun + " died with signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    return out;
  }
  Json msg = decode_message(r.bytes);
  r.bytes = {};  // the message is parsed: free its MBs before the caller's work
  if (msg.is_discarded() || !msg.is_object() || !(msg.contains("ok") || msg.contains("error"))) {
    out.error = noun + " returned no result";
  } else if (msg.contains("error")) {
    out.error = msg["error"].is_string() ? msg["error"].get<std::string>() : noun + " failed";
    if (msg.contains("code") && msg["code"].is_number_integer()) out.code = msg["code"].get<int>();
  } else {
    out.ok = true;
    out.result = std::move(msg["ok"]);
  }
  return out;
}

}  // namespace

void run_in_processes(size_t n, int jobs, const std::function<Json(size_t)>& task,
                      const std::function<void(size_t, TaskOutcome)>& done,
                      const std::string& process_noun) {
  const size_t slots = static_cast<size_t>(jobs < 1 ? 1 : jobs);
  Progress* progress = Progress::current();  // the command's, if it opened one
  if (progress) progress->add_total(n);
  std::vector<Running> running;
  size_t next = 0;
  uint8_t buf[1 << 16];
  while (next < n || !running.empty()) {
    while (next < n && running.size() < slots) running.push_back(start(task, next++));
    std::vector<pollfd> pfds;
    for (const auto& r : running) pfds.push_back({r.fd, POLLIN, 0});
    if (::poll(pfds.data(), pfds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    // Drain ready pipes; a child that closed its end (EOF) is reaped and its slot freed.
    for (size_t i = pfds.size(); i-- > 0;) {
      if (pfds[i].revents == 0) continue;
      const ssize_t got = ::read(running[i].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got > 0) {
        running[i].bytes.insert(running[i].bytes.end(), buf, buf + got);
        continue;
      }
      Running r = std::move(running[i]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      const size_t index = r.task;
      done(index, finish(r, process_noun));
      if (progress) progress->advance();
    }
  }
}

}  // namespace pdsim

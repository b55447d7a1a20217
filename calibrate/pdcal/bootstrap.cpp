#include "calibrate/pdcal/bootstrap.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

namespace pdsim::pdcal {
namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point deadline_in(double s) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

int ms_left(Clock::time_point deadline) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

sockaddr_in resolve(const Endpoint& e) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(e.host.c_str(), nullptr, &hints, &res) != 0 || res == nullptr)
    throw ProbeError("bootstrap: cannot resolve host '" + e.host + "'");
  sockaddr_in a{};
  std::memcpy(&a, res->ai_addr, sizeof a);
  freeaddrinfo(res);
  a.sin_port = htons(static_cast<uint16_t>(e.port));
  return a;
}

void wait_fd(int fd, short events, Clock::time_point deadline, const std::string& what) {
  pollfd p{fd, events, 0};
  int rc = poll(&p, 1, ms_left(deadline));
  if (rc == 0) throw ProbeError("timeout: " + what + " (peer dead or hung?)");
  if (rc < 0) throw ProbeError(what + ": poll failed: " + std::strerror(errno));
}

void send_all(int fd, const void* data, size_t n, Clock::time_point deadline,
              const std::string& what) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    wait_fd(fd, POLLOUT, deadline, what);
    ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k <= 0) throw ProbeError(what + ": peer closed the connection");
    p += k;
    n -= static_cast<size_t>(k);
  }
}

void recv_all(int fd, void* data, size_t n, Clock::time_point deadline, const std::string& what) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    wait_fd(fd, POLLIN, deadline, what);
    ssize_t k = ::recv(fd, p, n, 0);
    if (k <= 0) throw ProbeError(what + ": peer closed the connection (peer died?)");
    p += k;
    n -= static_cast<size_t>(k);
  }
}

void send_frame(int fd, const std::string& s, Clock::time_point deadline, const std::string& what) {
  uint64_t n = s.size();
  send_all(fd, &n, sizeof n, deadline, what);
  send_all(fd, s.data(), s.size(), deadline, what);
}

std::string recv_frame(int fd, Clock::time_point deadline, const std::string& what) {
  uint64_t n = 0;
  recv_all(fd, &n, sizeof n, deadline, what);
  if (n > (1ull << 30)) throw ProbeError(what + ": implausible frame length (not a pdcal peer?)");
  std::string s(n, '\0');
  recv_all(fd, s.data(), n, deadline, what);
  return s;
}

void set_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

Endpoint parse_host_port(const std::string& text) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw ProbeError("expected HOST:PORT, got '" + text + "'");
  Endpoint e;
  e.host = text.substr(0, colon);
  try {
    size_t used = 0;
    e.port = std::stoi(text.substr(colon + 1), &used);
    if (used != text.size() - colon - 1 || e.port < 0 || e.port > 65535) throw 0;
  } catch (...) {
    throw ProbeError("expected a port number 0..65535 in '" + text + "'");
  }
  return e;
}

Bootstrap Bootstrap::listen(const Endpoint& at, int nranks, double timeout_s,
                            const std::string& port_file) {
  if (nranks < 2) throw ProbeError("--ranks must be at least 2");
  Bootstrap b;
  b.rank_ = 0;
  b.nranks_ = nranks;
  int lfd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a = resolve(at);
  if (bind(lfd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(lfd, nranks) != 0) {
    std::string err = std::strerror(errno);
    close(lfd);
    throw ProbeError("bootstrap: cannot listen on " + at.host + ":" + std::to_string(at.port) +
                     ": " + err);
  }
  socklen_t len = sizeof a;
  getsockname(lfd, reinterpret_cast<sockaddr*>(&a), &len);
  if (!port_file.empty()) {
    std::string tmp = port_file + ".tmp";
    std::ofstream(tmp) << ntohs(a.sin_port) << "\n";
    std::rename(tmp.c_str(), port_file.c_str());
  }
  auto deadline = deadline_in(timeout_s);
  try {
    for (int r = 1; r < nranks; ++r) {
      wait_fd(lfd, POLLIN, deadline,
              "bootstrap: waiting for " + std::to_string(nranks - r) + " peer(s) to connect");
      int fd = accept(lfd, nullptr, nullptr);
      if (fd < 0)
        throw ProbeError(std::string("bootstrap: accept failed: ") + std::strerror(errno));
      set_nodelay(fd);
      b.fds_.push_back(fd);
      int32_t hello[2] = {r, nranks};
      send_all(fd, hello, sizeof hello, deadline, "bootstrap: sending rank");
    }
  } catch (...) {
    close(lfd);
    throw;
  }
  close(lfd);
  return b;
}

Bootstrap Bootstrap::connect(const Endpoint& to, double timeout_s) {
  Bootstrap b;
  sockaddr_in a = resolve(to);
  auto deadline = deadline_in(timeout_s);
  int fd = -1;
  for (;;) {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) break;
    close(fd);
    if (Clock::now() > deadline)
      throw ProbeError("timeout: cannot connect to " + to.host + ":" + std::to_string(to.port) +
                       " (is the --listen side running?)");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  set_nodelay(fd);
  b.fds_.push_back(fd);
  int32_t hello[2] = {0, 0};
  recv_all(fd, hello, sizeof hello, deadline, "bootstrap: receiving rank");
  b.rank_ = hello[0];
  b.nranks_ = hello[1];
  return b;
}

Bootstrap::Bootstrap(Bootstrap&& o) noexcept
    : mpi_(o.mpi_), rank_(o.rank_), nranks_(o.nranks_), fds_(std::move(o.fds_)) {
  o.fds_.clear();
}

Bootstrap::~Bootstrap() {
  for (int fd : fds_) close(fd);
}

bool Bootstrap::launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

std::vector<std::string> Bootstrap::allgather(const std::string& blob, double timeout_s) {
  if (mpi_) return mpi_allgather(blob);
  auto deadline = deadline_in(timeout_s);
  std::vector<std::string> all(static_cast<size_t>(nranks_));
  if (rank_ == 0) {
    all[0] = blob;
    for (int r = 1; r < nranks_; ++r)
      all[static_cast<size_t>(r)] = recv_frame(fds_[static_cast<size_t>(r - 1)], deadline,
                                               "bootstrap: waiting for rank " + std::to_string(r));
    for (int fd : fds_)
      for (const auto& s : all) send_frame(fd, s, deadline, "bootstrap: sending to a peer");
  } else {
    send_frame(fds_[0], blob, deadline, "bootstrap: sending to rank 0");
    for (auto& s : all) s = recv_frame(fds_[0], deadline, "bootstrap: waiting for rank 0");
  }
  return all;
}

}  // namespace pdsim::pdcal

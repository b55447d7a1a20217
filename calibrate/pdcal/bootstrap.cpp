#include "calibrate/pdcal/bootstrap.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "calibrate/pdcal/peer_text.hpp"
#include "calibrate/pdcal/wire.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"

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

// `before` bytes of a `total`-byte message came before these `n` (for the error message).
void recv_all(int fd, void* data, size_t n, Clock::time_point deadline, const std::string& what,
              size_t before = 0, size_t total = 0) {
  char* p = static_cast<char*>(data);
  for (size_t got = 0; got < n;) {
    wait_fd(fd, POLLIN, deadline, what);
    ssize_t k = ::recv(fd, p + got, n - got, 0);
    if (k <= 0)
      throw ProbeError(what + ": peer closed the connection after " + std::to_string(before + got) +
                       " of " + std::to_string(total > 0 ? total : n) + " bytes (peer died?)");
    got += static_cast<size_t>(k);
  }
}

void send_frame(int fd, const std::string& s, Clock::time_point deadline, const std::string& what) {
  const auto header = encode_frame_length(s.size());
  send_all(fd, header.data(), header.size(), deadline, what);
  send_all(fd, s.data(), s.size(), deadline, what);
}

// Grows with the bytes that arrive: a length the peer announces but does not send costs nothing.
std::string recv_frame(int fd, Clock::time_point deadline, const std::string& what,
                       const std::string& from) {
  std::array<uint8_t, kFrameHeaderBytes> header{};
  recv_all(fd, header.data(), header.size(), deadline, what);
  const uint64_t n = decode_frame_length(header, from);
  constexpr size_t kChunk = size_t{64} << 10;
  std::string s;
  while (s.size() < n) {
    const size_t got = s.size(), want = std::min<size_t>(n - got, kChunk);
    s.resize(got + want);
    recv_all(fd, s.data() + got, want, deadline, what, got, n);
  }
  return s;
}

int open_socket() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    throw ProbeError(std::string("bootstrap: cannot create a socket: ") + std::strerror(errno));
  return fd;
}

void set_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

Endpoint parse_host_port(const std::string& text, const std::string& flag, int min_port) {
  const std::string expected = "expected HOST:PORT with PORT " + std::to_string(min_port) +
                               "..65535, got " + escaped_excerpt(text);
  auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size() || colon > 255 ||
      first_unprintable(text))
    throw InputError("<command line>", flag, expected);
  Endpoint e;
  e.host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), e.port);
  if (ec != std::errc() || end != port.data() + port.size() || e.port < min_port || e.port > 65535)
    throw InputError("<command line>", flag, expected);
  return e;
}

Bootstrap Bootstrap::listen(const Endpoint& at, int nranks, double timeout_s,
                            const std::string& port_file) {
  if (nranks < 2 || nranks > kMaxRanks)
    throw InputError(
        "<command line>", "--ranks",
        "expected 2.." + std::to_string(kMaxRanks) + ", got " + std::to_string(nranks));
  Bootstrap b;
  b.rank_ = 0;
  b.nranks_ = nranks;
  int lfd = open_socket();
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
  auto deadline = deadline_in(timeout_s);
  try {
    if (!port_file.empty()) write_file_atomic(port_file, std::to_string(ntohs(a.sin_port)) + "\n");
    for (int r = 1; r < nranks; ++r) {
      wait_fd(lfd, POLLIN, deadline,
              "bootstrap: waiting for " + std::to_string(nranks - r) + " peer(s) to connect");
      int fd = accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0)
        throw ProbeError(std::string("bootstrap: accept failed: ") + std::strerror(errno));
      set_nodelay(fd);
      b.fds_.push_back(fd);
      const auto hello = encode_hello({r, nranks});
      send_all(fd, hello.data(), hello.size(), deadline, "bootstrap: sending rank");
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
  b.rank0_ = "rank 0 (" + to.host + ":" + std::to_string(to.port) + ")";
  sockaddr_in a = resolve(to);
  auto deadline = deadline_in(timeout_s);
  int fd = -1;
  for (;;) {
    fd = open_socket();
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) break;
    close(fd);
    if (Clock::now() > deadline)
      throw ProbeError("timeout: cannot connect to " + to.host + ":" + std::to_string(to.port) +
                       " (is the --listen side running?)");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  set_nodelay(fd);
  b.fds_.push_back(fd);
  std::array<uint8_t, kHelloBytes> bytes{};
  recv_all(fd, bytes.data(), bytes.size(), deadline, "bootstrap: receiving rank");
  const Hello hello = decode_hello(bytes, b.rank0_);
  b.rank_ = hello.rank;
  b.nranks_ = hello.nranks;
  return b;
}

Bootstrap::Bootstrap(Bootstrap&& o) noexcept
    : mpi_(o.mpi_),
      rank_(o.rank_),
      nranks_(o.nranks_),
      rank0_(std::move(o.rank0_)),
      fds_(std::move(o.fds_)) {
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

std::vector<std::string> Bootstrap::allgather(const std::string& blob, double timeout_s,
                                              const BlobCheck& check) {
  std::vector<std::string> all;
  if (mpi_) {
    all = mpi_allgather(blob);
    if (check)
      for (size_t r = 0; r < all.size(); ++r) check(all[r], "rank " + std::to_string(r));
    return all;
  }
  auto deadline = deadline_in(timeout_s);
  all.resize(static_cast<size_t>(nranks_));
  if (rank_ == 0) {
    all[0] = blob;
    for (int r = 1; r < nranks_; ++r) {
      const std::string who = "rank " + std::to_string(r);
      all[static_cast<size_t>(r)] = recv_frame(fds_[static_cast<size_t>(r - 1)], deadline,
                                               "bootstrap: waiting for " + who, who);
      if (check) check(all[static_cast<size_t>(r)], who);
    }
    for (int fd : fds_)
      for (const auto& s : all) send_frame(fd, s, deadline, "bootstrap: sending to a peer");
  } else {
    send_frame(fds_[0], blob, deadline, "bootstrap: sending to rank 0");
    for (size_t r = 0; r < all.size(); ++r) {
      all[r] = recv_frame(fds_[0], deadline, "bootstrap: waiting for rank 0", rank0_);
      if (check) check(all[r], r == 0 && !rank0_.empty() ? rank0_ : "rank " + std::to_string(r));
    }
  }
  return all;
}

void Bootstrap::barrier(double timeout_s) {
  allgather("", timeout_s,
            [](std::string_view f, const std::string& who) { check_barrier(f, who); });
}

}  // namespace pdsim::pdcal

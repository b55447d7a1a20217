#pragma once
// The fake bootstrap peer of hostile_peer_test.cpp: a loopback socket to pdcal whose every
// operation has a deadline and reports failure instead of throwing or blocking, and the bytes
// of the pdcal bootstrap protocol (calibrate/pdcal/wire.hpp) built by hand.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

namespace pdcal_test {

inline constexpr int kPollMs = 8000;  // longest wait for pdcal's side of the conversation

// A socket to pdcal; every operation has a deadline and reports failure instead of throwing.
struct Peer {
  int fd = -1;
  bool ok = true;
  ~Peer() { close_now(); }
  void close_now() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  void send(const std::string& bytes) {
    for (size_t done = 0; ok && done < bytes.size();) {
      ssize_t k = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (k <= 0) ok = false;
      done += k > 0 ? static_cast<size_t>(k) : 0;
    }
  }
  std::string recv(size_t n) {
    std::string s(n, '\0');
    for (size_t got = 0; ok && got < n;) {
      pollfd p{fd, POLLIN, 0};
      ssize_t k = poll(&p, 1, kPollMs) == 1 ? ::recv(fd, s.data() + got, n - got, 0) : -1;
      if (k <= 0) ok = false;
      got += k > 0 ? static_cast<size_t>(k) : 0;
    }
    return s;
  }
  std::string recv_frame() {
    std::string h = recv(8);
    uint64_t n = 0;
    std::memcpy(&n, h.data(), 8);
    if (!ok || n > (1u << 20)) return ok = false, "";
    return recv(n);
  }
};

inline std::string u64(uint64_t v) {
  return std::string(reinterpret_cast<const char*>(&v), 8);
}
inline std::string hello(int32_t rank, int32_t nranks) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &rank, 4);
  std::memcpy(s.data() + 4, &nranks, 4);
  return s;
}
inline std::string frame(const std::string& payload) {
  return u64(payload.size()) + payload;
}

inline int listen_socket(int& port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 4) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    std::cerr << "cannot listen on 127.0.0.1: " << std::strerror(errno) << "\n";
    std::exit(1);
  }
  port = ntohs(a.sin_port);
  return fd;
}

inline int accept_within(int lfd) {
  pollfd p{lfd, POLLIN, 0};
  return poll(&p, 1, kPollMs) == 1 ? accept(lfd, nullptr, nullptr) : -1;
}

inline int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace pdcal_test

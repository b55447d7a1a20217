#include "calibrate/pdcal/wire.hpp"

#include <cstring>
#include <string>

#include "calibrate/pdcal/peer_text.hpp"
#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {
namespace {

void check_size(std::string_view message, std::span<const uint8_t> bytes, size_t want,
                std::string_view from) {
  if (bytes.size() != want)
    throw PeerMessageError(
        message, from, "length",
        "expected " + std::to_string(want) + " bytes, got " + std::to_string(bytes.size()));
}

}  // namespace

std::array<uint8_t, kHelloBytes> encode_hello(const Hello& h) {
  std::array<uint8_t, kHelloBytes> out{};
  std::memcpy(out.data(), &h.rank, 4);
  std::memcpy(out.data() + 4, &h.nranks, 4);
  return out;
}

Hello decode_hello(std::span<const uint8_t> bytes, std::string_view from) {
  check_size("hello", bytes, kHelloBytes, from);
  Hello h;
  std::memcpy(&h.rank, bytes.data(), 4);
  std::memcpy(&h.nranks, bytes.data() + 4, 4);
  const std::string hint = " (is a pdcal --listen of the same version on that port?)";
  if (h.nranks < 2 || h.nranks > kMaxRanks)
    throw PeerMessageError(
        "hello", from, "nranks",
        "expected 2.." + std::to_string(kMaxRanks) + ", got " + std::to_string(h.nranks) + hint);
  if (h.rank < 1 || h.rank >= h.nranks)
    throw PeerMessageError("hello", from, "rank",
                           "expected 1.." + std::to_string(h.nranks - 1) +
                               " (a connector is never rank 0), got " + std::to_string(h.rank) +
                               hint);
  return h;
}

std::array<uint8_t, kFrameHeaderBytes> encode_frame_length(uint64_t n) {
  std::array<uint8_t, kFrameHeaderBytes> out{};
  std::memcpy(out.data(), &n, sizeof n);
  return out;
}

uint64_t decode_frame_length(std::span<const uint8_t> header, std::string_view from) {
  check_size("frame", header, kFrameHeaderBytes, from);
  uint64_t n = 0;
  std::memcpy(&n, header.data(), sizeof n);
  if (n > kMaxFrameBytes)
    throw PeerMessageError("frame", from, "length",
                           "expected at most " + std::to_string(kMaxFrameBytes) + " bytes, got " +
                               std::to_string(n) + " (not a pdcal peer?)");
  return n;
}

void check_parameters(std::string_view text, std::string_view from) {
  if (text.size() > kMaxParamsBytes)
    throw PeerMessageError("parameters", from, "length",
                           "expected at most " + std::to_string(kMaxParamsBytes) + " bytes, got " +
                               std::to_string(text.size()));
  if (auto bad = first_unprintable(text)) {
    const size_t start = *bad > 24 ? *bad - 24 : 0;
    throw PeerMessageError("parameters", from, "text",
                           "expected printable UTF-8 (a JSON dump), got a non-printable or "
                           "invalid byte at offset " +
                               std::to_string(*bad) + " of " + std::to_string(text.size()) +
                               ", from offset " + std::to_string(start) + ": " +
                               escaped_excerpt(text.substr(start), 64));
  }
}

void check_barrier(std::string_view frame, std::string_view from) {
  if (!frame.empty())
    throw PeerMessageError("barrier", from, "length",
                           "expected an empty frame, got " + std::to_string(frame.size()) +
                               " bytes: " + escaped_excerpt(frame, 32));
}

}  // namespace pdsim::pdcal

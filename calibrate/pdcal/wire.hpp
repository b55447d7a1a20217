#pragma once
// The TCP bootstrap's messages and their validation, as pure functions over bytes, so that the
// bootstrap (bootstrap.cpp) and the fuzzer (tests/fuzz/fuzz_bootstrap.cpp) run the same
// checks. Nothing a peer sends is used before it passes them; a violation is a PeerMessageError
// naming the message, the sender (`from`), the field and what was expected.
//   hello  listener → each connector, 8 bytes: int32 rank, int32 nranks (host byte order)
//   frame  either way: uint64 length, then that many bytes (the parameters every rank compares,
//          an address blob, or nothing for a barrier)
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace pdsim::pdcal {

// Ranks in one job: --ranks and every hello are held to it.
inline constexpr int kMaxRanks = 4096;
inline constexpr size_t kHelloBytes = 8, kFrameHeaderBytes = 8;
// The largest legitimate frame is a verbs RC address blob: 30 B + 4 B per QP, 64 endpoints ×
// 4096 ranks = 1 MiB. Frames are also read as their bytes arrive, never allocated up front, so
// a peer cannot make a rank reserve memory it does not send.
inline constexpr uint64_t kMaxFrameBytes = uint64_t{4} << 20;
// The parameters frame is a JSON dump of a dozen flags (~300 B); 16 KiB leaves room for long
// provider names.
inline constexpr size_t kMaxParamsBytes = size_t{16} << 10;

struct Hello {
  int32_t rank = 0, nranks = 0;
};
std::array<uint8_t, kHelloBytes> encode_hello(const Hello& h);
// Exactly kHelloBytes; 2 <= nranks <= kMaxRanks and 1 <= rank < nranks (a connector is never
// rank 0).
Hello decode_hello(std::span<const uint8_t> bytes, std::string_view from);

std::array<uint8_t, kFrameHeaderBytes> encode_frame_length(uint64_t n);
// Exactly kFrameHeaderBytes; the length is at most kMaxFrameBytes.
uint64_t decode_frame_length(std::span<const uint8_t> header, std::string_view from);

// A parameters frame: at most kMaxParamsBytes of printable UTF-8.
void check_parameters(std::string_view text, std::string_view from);
// A barrier frame carries nothing.
void check_barrier(std::string_view frame, std::string_view from);

}  // namespace pdsim::pdcal

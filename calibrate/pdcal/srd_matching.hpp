#pragma once
// Software message matching for the SRD transport. SRD delivers two-sided messages unordered and
// at most one packet each, so a message travels as segments, each behind a header naming its
// tag, source rank, segment index and total size; the receiver matches segments to posted
// receives on (source, tag), places them by index and keeps early arrivals aside until their
// receive is posted — what libfabric's efa provider does too. No verbs here: the matching is
// plain C++ and compiles whether or not efadv is present.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "calibrate/pdcal/transport.hpp"

namespace pdsim::pdcal {

// Sent as the first SGE of every segment; the payload follows it in the same packet.
struct SrdHeader {
  uint32_t tag, src, seg, pad;
  uint64_t total;
};

// Per-operation state kept in Op::ctx: receives use tag, peer, offset, bytes and got; sends and
// writes count their segments not completed yet in `pending`.
struct SrdOpState {
  uint32_t tag = 0;
  int32_t peer = 0;
  uint64_t offset = 0, bytes = 0, got = 0;
  uint32_t pending = 0;
};
static_assert(sizeof(SrdOpState) <= sizeof(Op::ctx));
SrdOpState srd_state(const Op& op);
void set_srd_state(Op& op, const SrdOpState& s);

class SrdMatcher {
 public:
  SrdMatcher() = default;
  // Received payloads are copied into `buffer` (the transport's registered buffer); segment k
  // of a message starts k * payload_max bytes into its receive.
  SrdMatcher(char* buffer, size_t payload_max) : buf_(buffer), payload_max_(payload_max) {}

  // Posts a receive of `bytes` at buffer + offset from `peer` with `tag`, and takes the
  // segments that arrived before it. The op is done once every byte is placed.
  void post(Op& op, int peer, uint32_t tag, size_t offset, size_t bytes);
  // One segment out of a bounce buffer: delivered to its posted receive, or kept (copied) as an
  // early arrival. Throws ProbeError when its size disagrees with the receive's.
  void received(const SrdHeader& h, const char* payload, size_t len);

 private:
  struct Early {
    SrdHeader h;
    std::vector<char> payload;
  };
  void deliver(Op& op, const SrdHeader& h, const char* payload, size_t len);

  char* buf_ = nullptr;
  size_t payload_max_ = 0;
  std::deque<Op*> posted_;
  std::deque<Early> unexpected_;
};

}  // namespace pdsim::pdcal

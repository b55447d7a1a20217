#include "calibrate/pdcal/srd_matching.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {

SrdOpState srd_state(const Op& op) {
  SrdOpState s;
  std::memcpy(&s, op.ctx, sizeof s);
  return s;
}

void set_srd_state(Op& op, const SrdOpState& s) {
  std::memcpy(op.ctx, &s, sizeof s);
}

void SrdMatcher::post(Op& op, int peer, uint32_t tag, size_t offset, size_t bytes) {
  SrdOpState s;
  s.tag = tag;
  s.peer = peer;
  s.offset = offset;
  s.bytes = bytes;
  set_srd_state(op, s);
  op.done = false;
  posted_.push_back(&op);
  // Segments that arrived before this receive was posted.
  for (auto it = unexpected_.begin(); it != unexpected_.end() && !op.done;) {
    if (static_cast<int>(it->h.src) == peer && it->h.tag == tag) {
      deliver(op, it->h, it->payload.data(), it->payload.size());
      it = unexpected_.erase(it);
    } else {
      ++it;
    }
  }
}

void SrdMatcher::received(const SrdHeader& h, const char* payload, size_t len) {
  for (Op* op : posted_) {
    const SrdOpState s = srd_state(*op);
    if (s.peer == static_cast<int32_t>(h.src) && s.tag == h.tag) {
      deliver(*op, h, payload, len);
      return;
    }
  }
  unexpected_.push_back({h, std::vector<char>(payload, payload + len)});
}

void SrdMatcher::deliver(Op& op, const SrdHeader& h, const char* payload, size_t len) {
  SrdOpState s = srd_state(op);
  const uint64_t off = uint64_t{h.seg} * payload_max_;
  if (h.total != s.bytes || off + len > s.bytes)
    throw ProbeError("srd: message of " + std::to_string(h.total) + " B for a receive of " +
                     std::to_string(s.bytes) + " B (probe bug or mismatched ranks)");
  std::memcpy(buf_ + s.offset + off, payload, len);
  s.got += len;
  set_srd_state(op, s);
  if (s.got == s.bytes) {
    op.done = true;
    posted_.erase(std::find(posted_.begin(), posted_.end(), &op));
  }
}

}  // namespace pdsim::pdcal

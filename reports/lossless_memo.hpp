#pragma once
// lossless(v) text memoized by the double's bits: itl.csv repeats few distinct numbers (every
// request in a decode batch shares the iteration's end time and gap; the reference run's 4.4×10^5
// numbers hold ~3.8×10^4 distinct ones), and Grisu2 per number was most of its writing time.
// Direct-mapped: a collision only costs a recomputation, the text is always append_lossless's.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "reports/text_format.hpp"

namespace pdsim {

class LosslessMemo {
 public:
  // 2^bits slots of 32 bytes each.
  explicit LosslessMemo(int bits) : shift_(64 - bits), slots_(size_t{1} << bits) {}

  // The text, valid until the next call.
  std::string_view text(double v) {
    const uint64_t key = std::bit_cast<uint64_t>(v);
    Slot& s = slots_[(key * 0x9E3779B97F4A7C15ull) >> shift_];
    if (s.len == 0 || s.key != key) {
      scratch_.clear();
      append_lossless(scratch_, v);
      if (scratch_.size() > sizeof(s.text)) return scratch_;  // 24 characters: not kept
      s.key = key;
      s.len = static_cast<uint8_t>(scratch_.size());
      std::memcpy(s.text, scratch_.data(), scratch_.size());
    }
    return {s.text, s.len};
  }
  void append(std::string& out, double v) { out += text(v); }

 private:
  struct Slot {
    uint64_t key = 0;
    uint8_t len = 0;  // 0: empty (no double's text is empty)
    char text[23] = {};
  };
  int shift_;
  std::vector<Slot> slots_;
  std::string scratch_;
};

}  // namespace pdsim

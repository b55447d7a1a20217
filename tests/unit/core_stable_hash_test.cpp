// The one stable hash. FNV-1a's algorithm (xor a byte, multiply by the 64-bit FNV prime) with
// the offset basis this project has always used, 1469598103934665603: the standard basis
// 14695981039346656037 with its last digit dropped. Sweep point ids and RNG streams already in
// users' results files derive from it, so it stays; the expected values below are computed by hand
// (Python) from that basis.
#include <gtest/gtest.h>

#include "sim/core/stable_hash.hpp"

namespace pdsim {
namespace {

TEST(StableHash, Fnv1aWithTheProjectsBasis) {
  static_assert(fnv1a_64("") == 1469598103934665603ULL);
  EXPECT_EQ(fnv1a_64("a"), 0x44bd8ad473cd9906ULL);  // (basis ^ 0x61) * prime mod 2^64
  EXPECT_EQ(fnv1a_64("foobar"), 0x88fad7c0a8ff07f2ULL);
  // Bytes above 0x7f hash as unsigned: the same on every platform whatever char's signedness.
  EXPECT_EQ(fnv1a_64("\xff"), 0x44bd24d473ccebb4ULL);
  EXPECT_EQ(stable_hash_hex(""), "14650fb0739d0383");
  EXPECT_EQ(stable_hash_hex("a"), "44bd8ad473cd9906");
}

}  // namespace
}  // namespace pdsim

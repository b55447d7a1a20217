#include <gtest/gtest.h>

#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

TEST(Excerpt, ShortPrintableTextIsUnchanged) {
  EXPECT_EQ(excerpt("decode.tp"), "decode.tp");
  EXPECT_EQ(excerpt("µs – ok"), "µs – ok");  // valid UTF-8 passes
}

TEST(Excerpt, LongTextIsCutWithItsLength) {
  EXPECT_EQ(excerpt(std::string(52000000, 'x')),
            std::string(80, 'x') + "\xe2\x80\xa6 (52000000 bytes)");
  EXPECT_EQ(excerpt("abcdef", 3), "abc\xe2\x80\xa6 (6 bytes)");
  // Never cuts inside a UTF-8 character.
  EXPECT_EQ(excerpt("ab\xc2\xb5z", 3), "ab\xe2\x80\xa6 (5 bytes)");
}

TEST(Excerpt, ControlAndInvalidBytesAreEscaped) {
  EXPECT_EQ(excerpt(std::string("a\nb\0c\x7f", 6)), "a\\x0ab\\x00c\\x7f");
  EXPECT_EQ(excerpt("\xff\xfe ok \xc3"), "\\xff\\xfe ok \\xc3");
  EXPECT_EQ(excerpt("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a UTF-16 surrogate is not UTF-8
  EXPECT_EQ(excerpt("\x01\x02", std::string_view::npos), "\\x01\\x02");
}

TEST(Excerpt, InvalidUtf8OffsetIsTheFirstBadByte) {
  EXPECT_EQ(invalid_utf8_offset("plain ascii"), std::string_view::npos);
  EXPECT_EQ(invalid_utf8_offset("\xc2\xb5s \xe2\x80\x93 ok"), std::string_view::npos);
  EXPECT_EQ(invalid_utf8_offset("ab\xff"), 2u);
  EXPECT_EQ(invalid_utf8_offset("\xc2\xb5\xc3"), 2u);      // truncated 2-byte sequence
  EXPECT_EQ(invalid_utf8_offset("x\xed\xa0\x80"), 1u);     // surrogate
  EXPECT_EQ(invalid_utf8_offset("\xc0\xaf"), 0u);          // overlong '/'
  EXPECT_EQ(invalid_utf8_offset("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
}

}  // namespace
}  // namespace pdsim

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

}  // namespace
}  // namespace pdsim

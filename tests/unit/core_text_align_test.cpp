// Column alignment of the plain-text reports.
#include <gtest/gtest.h>

#include "sim/core/text_align.hpp"

namespace pdsim {
namespace {

TEST(TextAlign, PadsOnTheLeftByDefaultAndOnTheRightWhenAsked) {
  EXPECT_EQ(pad("7.5", 6), "   7.5");
  EXPECT_EQ(pad("R4", 5, true), "R4   ");
}

TEST(TextAlign, NeverCutsTextWiderThanTheColumn) {
  EXPECT_EQ(pad("duration_s", 4), "duration_s");
  EXPECT_EQ(pad("abcd", 4, true), "abcd");
}

TEST(TextAlign, AColumnAlwaysEndsInASpace) {
  EXPECT_EQ(column("ttft", 6), "ttft  ");
  EXPECT_EQ(column("median_itl", 6), "median_itl ");
  EXPECT_EQ(column("tpot", 4), "tpot ");
}

}  // namespace
}  // namespace pdsim

namespace pdsim {

TEST(TextAlign, WrapBreaksAtSpacesWithinTheWidth) {
  // Width 12 with a 2-space indent leaves 10 characters per line.
  EXPECT_EQ(wrap("aaa bbb ccc ddd", 12, "  "), "  aaa bbb\n  ccc ddd\n");
  EXPECT_EQ(wrap("abcdefghijklmnop x", 12, "  "), "  abcdefghijklmnop\n  x\n");  // never cut
  EXPECT_EQ(wrap("a  b", 80, ""), "a b\n");
  EXPECT_EQ(wrap("", 80, "  "), "");
}

}  // namespace pdsim

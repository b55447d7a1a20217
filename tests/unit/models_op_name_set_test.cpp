#include <gtest/gtest.h>

#include <cstring>

#include "models/op_name_set.hpp"

namespace pdsim {
namespace {

TEST(OpNameSet, SameLiteralOnce) {
  OpNameSet s;
  const char* a = "experts.gate_up";
  s.insert(a);
  s.insert(a);
  s.insert("mla.q_a_proj");
  ASSERT_EQ(s.names().size(), 2u);
  EXPECT_EQ(*s.names().begin(), "experts.gate_up");
}

TEST(OpNameSet, EqualTextAtTwoAddressesIsOneName) {
  // The same literal may be emitted by two translation units at two addresses.
  char copy[32];
  std::strcpy(copy, "indexer.scan");
  OpNameSet s;
  s.insert("indexer.scan");
  s.insert(copy);
  ASSERT_EQ(s.names().size(), 1u);
  EXPECT_EQ(*s.names().begin(), "indexer.scan");
}

TEST(OpNameSet, EmptyUntilNoted) {
  OpNameSet s;
  EXPECT_TRUE(s.names().empty());
}

}  // namespace
}  // namespace pdsim

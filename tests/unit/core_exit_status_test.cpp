#include <gtest/gtest.h>

#include <cerrno>
#include <new>
#include <stdexcept>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/exit_status.hpp"

namespace pdsim {
namespace {

template <class F>
ExitStatus status_of(F throw_it) {
  try {
    throw_it();
  } catch (...) {
    return classify_current_exception();
  }
  return {};
}

TEST(ExitStatus, EachErrorTypeHasItsDocumentedCode) {
  ExitStatus s = status_of([] { throw InputError("s.json", "seed", "expected an integer"); });
  EXPECT_EQ(s.code, 2);
  EXPECT_EQ(s.message, "s.json: field 'seed': expected an integer");
  s = status_of([] { throw InfeasibleError("no room"); });
  EXPECT_EQ(s.code, 3);
  EXPECT_EQ(s.message, "infeasible deployment: no room");
  s = status_of([] { throw IoError("out/x.json", "write failed", ENOSPC); });
  EXPECT_EQ(s.code, 4);
  EXPECT_EQ(s.message, "out/x.json: write failed: No space left on device");
  s = status_of([] { throw PropagatedError(3, "run R2: infeasible deployment: no room"); });
  EXPECT_EQ(s.code, 3);
  s = status_of([] { throw std::bad_alloc(); });
  EXPECT_EQ(s.code, 1);
  EXPECT_EQ(s.message, "out of memory (a missing input bound is a bug: please report it)");
  s = status_of([] { throw std::logic_error("oops"); });
  EXPECT_EQ(s.code, 1);
  EXPECT_EQ(s.message, "internal error (please report it): oops");
  s = status_of([] { throw 42; });
  EXPECT_EQ(s.code, 1);
  EXPECT_EQ(s.message, "internal error (please report it): unknown exception");
}

TEST(ExitStatus, AMessageQuotingInputWholeIsCut) {
  const ExitStatus s =
      status_of([] { throw InputError("f.json", "x", "got " + std::string(100000, 'a')); });
  EXPECT_EQ(s.code, 2);
  // 4096 bytes kept, then the excerpt's "… (N bytes)" with the whole message's length.
  EXPECT_EQ(s.message.substr(0, 20), "f.json: field 'x': g");
  EXPECT_NE(s.message.find("(100023 bytes)"), std::string::npos);
  EXPECT_LT(s.message.size(), 4096u + 32u);
}

}  // namespace
}  // namespace pdsim

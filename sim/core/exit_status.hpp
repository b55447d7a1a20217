#pragma once
// One mapping from a failure to the documented exit code and message, used by pdsim's top-level
// handler and by worker processes (which send it to their parent), so nothing reaches abort().
#include <string>

namespace pdsim {

struct ExitStatus {
  int code = 0;         // ExitCode (sim/core/error.hpp)
  std::string message;  // one line for stderr, without the "error: " prefix
};

// Classifies the exception in flight; call only inside a catch block.
ExitStatus classify_current_exception();

}  // namespace pdsim

#pragma once
// Runs a function in a forked child and returns its JSON result (CBOR over a pipe). SimGrid
// allows one engine per process, so every simulation (a `pdsim run`, each sweep point) runs in
// its own child; a crash there becomes an exception here instead of killing the caller. The
// child dies with its parent (PR_SET_PDEATHSIG).
#include <functional>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// Exceptions thrown by `f` in the child are rethrown here as PropagatedError with their text and
// exit code; a child killed by a signal is a PropagatedError (internal, 1) naming the signal.
Json call_in_child(const std::function<Json()>& f);

}  // namespace pdsim

#pragma once
// A wait that exceeds what a library tolerates: the run would have crashed there. A tail
// mechanism predicts it (sim/serve/mechanisms); the summary reports it instead of latencies.
#include <string>

#include "sim/core/fields.hpp"

namespace pdsim {

struct PredictedFailure {
  std::string mechanism;  // the tail mechanism whose wait it was
  std::string cause;      // what the library does, and why
  double at_s = 0;        // simulated time of the iteration
  double waited_s = 0;    // the wait when the library gave up

  template <class V>
  static void declare(V& v) {
    using F = PredictedFailure;
    v.field(&F::mechanism, "mechanism", {.help = "the tail mechanism whose wait it was"});
    v.field(&F::cause, "cause", {.help = "what the library does, and why"});
    v.field(&F::at_s, "at_s", {.help = "simulated time of the iteration", .unit = "s"});
    v.field(&F::waited_s, "waited_s", {.help = "the wait when the library gave up", .unit = "s"});
  }
};

}  // namespace pdsim

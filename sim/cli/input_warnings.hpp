#pragma once
// Inputs that changed nothing (sim/scenario/no_effect.hpp, overlays that fit no profile): each
// on stderr as "warning: ..." before the run's output; the same list is in the run's
// provenance (summary.json pdsim.input_warnings, scenario.resolved.json profiles).
#include <iostream>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim::cli {

inline void print_input_warnings(const Json& profiles, const std::string& who = "") {
  if (!profiles.is_object() || !profiles.contains("input_warnings")) return;
  for (const auto& w : profiles.at("input_warnings"))
    std::cerr << "warning: " << (who.empty() ? "" : who + ": ") << w.get<std::string>() << "\n";
}

}  // namespace pdsim::cli

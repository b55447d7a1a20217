#pragma once
// --seed N must be a non-negative integer, as "seed" in a scenario file must: CLI11 would turn
// "-1" into the unsigned 2^64 − 1 without a word (and fabric's int64 would read it as "no seed").
#include <CLI/CLI.hpp>
#include <string>

#include "sim/core/excerpt.hpp"

namespace pdsim::cli {

inline const CLI::Validator kNonNegativeSeed(
    [](std::string& s) -> std::string {
      const size_t first = s.find_first_not_of(" \t");
      if (first != std::string::npos && s[first] == '-')
        return "expected a non-negative integer, got '" + excerpt(s) + "'";
      return {};
    },
    "NON-NEGATIVE");

}  // namespace pdsim::cli

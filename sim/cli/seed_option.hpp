#pragma once
// --seed N must be an integer in [0, 2^63), as "seed" in a scenario file must: CLI11 would turn
// "-1" into the unsigned 2^64 − 1 without a word (and fabric's int64 would read it as "no seed").
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <string>

#include "sim/core/excerpt.hpp"

namespace pdsim::cli {

inline const CLI::Validator kNonNegativeSeed(
    [](std::string& s) -> std::string {
      const size_t first = s.find_first_not_of(" \t");
      if (first != std::string::npos && s[first] == '-')
        return "expected a non-negative integer, got '" + excerpt(s) + "'";
      // CLI11 would read 99999999999999999999 as 2^64 − 1; a seed is below 2^63, as "seed" in a
      // scenario file and a result's seed are (JsonNode::integer).
      const size_t last = s.find_last_not_of(" \t");
      if (first == std::string::npos) return "expected a non-negative integer, got ''";
      int64_t v = 0;
      const char* b = s.data() + first;
      const char* e = s.data() + last + 1;
      const auto [end, ec] = std::from_chars(b, e, v);
      if (ec == std::errc::result_out_of_range)
        return "expected an integer below 2^63, got '" + excerpt(s) + "'";
      if (ec != std::errc() || end != e)
        return "expected a non-negative integer, got '" + excerpt(s) + "'";
      return {};
    },
    "NON-NEGATIVE");

}  // namespace pdsim::cli

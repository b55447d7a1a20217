#include "sim/core/time_bound.hpp"

#include <cmath>
#include <cstdio>

namespace pdsim {

std::optional<double> seconds_per_unit(std::string_view unit) {
  if (unit == "s") return 1.0;
  if (unit == "ms") return 1e-3;
  if (unit == "us") return 1e-6;
  if (unit == "ns") return 1e-9;
  if (unit == "ps") return 1e-12;
  return std::nullopt;
}

std::optional<std::string> key_time_unit(std::string_view key) {
  // The last key of a path, without array indices.
  if (const size_t dot = key.find_last_of(". "); dot != std::string_view::npos)
    key = key.substr(dot + 1);
  if (const size_t br = key.find('['); br != std::string_view::npos) key = key.substr(0, br);
  std::optional<std::string> found;
  std::string_view prev;
  for (size_t start = 0; start <= key.size();) {
    size_t end = key.find('_', start);
    if (end == std::string_view::npos) end = key.size();
    const std::string_view word = key.substr(start, end - start);
    if (seconds_per_unit(word) && prev != "per") found = std::string(word);
    prev = word;
    start = end + 1;
  }
  return found;
}

double seconds_in_unit(double cap_s, std::string_view unit) {
  return cap_s / seconds_per_unit(unit).value_or(1.0);
}

std::string time_cap_text(std::string_view unit, double cap_s) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "a time of at most %g %.*s (%g s)", seconds_in_unit(cap_s, unit),
                static_cast<int>(unit.size()), unit.data(), cap_s);
  return buf;
}

bool time_within(double value, std::string_view unit, double cap_s) {
  return std::fabs(value) <= seconds_in_unit(cap_s, unit);
}

}  // namespace pdsim

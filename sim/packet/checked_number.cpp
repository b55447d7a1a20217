#include "sim/packet/checked_number.hpp"

#include <sstream>

namespace pdsim::packet::checked {

int count(const JsonNode& n, int64_t lo, int64_t hi) {
  const int64_t v = n.integer();
  if (v < lo || v > hi)
    n.fail("expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

int count_or(const JsonNode& n, std::string_view key, int def, int64_t lo, int64_t hi) {
  return n.has(key) ? count(n.at(key), lo, hi) : def;
}

std::string compact(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

double ranged(const JsonNode& n, double lo, double hi, const std::string& unit) {
  const double v = n.number();
  if (!(v >= lo && v <= hi))
    n.fail("expected " + unit + " in [" + compact(lo) + ", " + compact(hi) + "]");
  return v;
}

double gbps(const JsonNode& n) {
  return ranged(n, kMinGbps, kMaxGbps, "Gb/s");
}

Picoseconds us(const JsonNode& n, bool positive) {
  const double v = ranged(n, 0, kMaxTimeUs, "microseconds");
  if (positive && v <= 0) n.fail("expected a positive number of microseconds");
  return us_to_ps(v);
}

}  // namespace pdsim::packet::checked

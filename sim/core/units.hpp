#pragma once
// Unit conventions. Packet-level time is integer picoseconds (Picoseconds); the serving
// simulation runs on SimGrid's double seconds. Elsewhere quantities carry their unit in the
// name (_bytes, _us, _s, _gbps, _GBps, _flops). The helpers below are the only conversions.
#include <cstdint>

namespace pdsim {

using Picoseconds = int64_t;

constexpr double kBitsPerByte = 8.0;
constexpr double us_to_s(double us) {
  return us * 1e-6;
}
constexpr double s_to_ms(double s) {
  return s * 1e3;
}
constexpr double gbps_to_bytes_per_s(double gbps) {
  return gbps * 1e9 / kBitsPerByte;
}  // Gb/s
constexpr double GBps_to_bytes_per_s(double GBps) {
  return GBps * 1e9;
}  // GB/s
constexpr Picoseconds us_to_ps(double us) {
  return static_cast<Picoseconds>(us * 1e6 + 0.5);
}
constexpr double ps_to_us(Picoseconds ps) {
  return static_cast<double>(ps) * 1e-6;
}

}  // namespace pdsim

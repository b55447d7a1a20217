#pragma once
// Numbers of a packet experiment file read through a range before they are converted (issue 31: a
// 64-bit count once narrowed to int, a rate of 1e-300 Gb/s divided into a packet time): outside
// it, the value is a unit mistake or would overflow the engine's integer picoseconds and bytes.
// Each failure names the JSON field (JsonNode::fail).

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/json_reader.hpp"
#include "sim/core/units.hpp"

namespace pdsim::packet::checked {

constexpr double kMaxTimeUs = 1e9;      // 1000 s of simulated time (int64 ps holds 9.2e6 s)
constexpr int64_t kMaxCount = 1 << 20;  // hosts, switches, ports, packets in one field
constexpr double kMaxBytes = 1e12;      // a switch buffer or threshold
constexpr double kMinGbps = 1e-3, kMaxGbps = 1e6;  // 1 Mb/s .. 1 Pb/s per link

// An integer in [lo, hi].
int count(const JsonNode& n, int64_t lo = 1, int64_t hi = kMaxCount);
// `key` of n read by count, or `def` when absent.
int count_or(const JsonNode& n, std::string_view key, int def, int64_t lo = 1,
             int64_t hi = kMaxCount);
// A number in [lo, hi]; the message names `unit`.
double ranged(const JsonNode& n, double lo, double hi, const std::string& unit);
// A link rate in [kMinGbps, kMaxGbps].
double gbps(const JsonNode& n);
// A time in µs as integer picoseconds: >= 0 (> 0 when `positive`), at most kMaxTimeUs.
Picoseconds us(const JsonNode& n, bool positive = false);
// x as the stream prints it (1e+12), for messages.
std::string compact(double x);

}  // namespace pdsim::packet::checked

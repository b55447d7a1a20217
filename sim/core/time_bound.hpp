#pragma once
// The one bound on time-valued input. pdsim names a time by its unit (`host_us_per_chunk`,
// `p99_ttft_ms`, `arrival_s`; bench_serving does the same), so a reader knows a number is a time
// from its key alone. Every such number read from a file, an overlay or a flag is at most
// kMaxTimeS in magnitude: longer than any serving run pdsim simulates (a trace of 11.6 days),
// and short enough that every time converts to the packet clock (int64 picoseconds, 106 days).
// A larger value is a unit error or a typo; without this bound it ran to a 1e295-second
// "result". Fields inside one forward step declare a tighter `max` (kMaxStepS).
#include <optional>
#include <string>
#include <string_view>

namespace pdsim {

inline constexpr double kMaxTimeS = 1e6;
// SGLang's --watchdog-timeout default (server_args.py): a forward batch longer than this crashes
// the server, so no cost inside one step can exceed it.
inline constexpr double kMaxStepS = 300;

// The slowest rate worth simulating: one event per kMaxTimeS (request rates, SLO search brackets).
inline constexpr double kMinRatePerS = 1 / kMaxTimeS;

// Seconds per unit of a time unit word ("s", "ms", "us", "ns", "ps"); nullopt for any other.
std::optional<double> seconds_per_unit(std::string_view unit);

// The time unit a key names: the last underscore-separated word that is a time unit and does not
// follow "per" ("host_us_per_chunk" → "us", "p99_ttft_ms" → "ms", "tokens_per_s" → none). A
// field path is reduced to its last key first ("a.b[2].gap_us" → "gap_us").
std::optional<std::string> key_time_unit(std::string_view key);

// `cap_s` seconds in `unit`.
double seconds_in_unit(double cap_s, std::string_view unit);

// "a time of at most 1e+09 ms (1000000 s)": the expectation of a message.
std::string time_cap_text(std::string_view unit, double cap_s);

// Throws nothing; true when |value| in `unit` is within cap_s seconds (NaN is not).
bool time_within(double value, std::string_view unit, double cap_s);

}  // namespace pdsim

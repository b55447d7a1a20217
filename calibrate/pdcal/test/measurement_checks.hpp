#pragma once
// What a measurement file written by pdcal must hold for the loopback tests to pass: the
// envelope (schema, probe, provenance, completeness) and, per probe, rows that are physically
// possible for the sizes the driver asked for (loopback_test.cpp). A failed check is counted
// and reported, not fatal, so that one run names every failure.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace pdcal_test {

// Prints "FAIL: what" and counts a failure unless `ok`.
void expect(bool ok, const std::string& what);
int failures();

// The file parsed as JSON; exits 1 when it is not.
nlohmann::json load(const std::filesystem::path& p);

void check_envelope(const nlohmann::json& d, const std::string& probe, bool complete);
// Distribution sanity: 0 < min <= p50 <= p99 <= max, and latency_us is the median.
void check_quantiles(const nlohmann::json& r, const std::string& where);

// One rank's rows; `who` names the rank in messages, `memcpy_GBps` is its measured copy rate.
// pingpong: --max-bytes 1M (powers of 2).
void check_pingpong_rows(const nlohmann::json& rows, const std::string& who, double memcpy_GBps);
// bandwidth: --max-bytes 4M --factor 4, over `endpoints` endpoints.
void check_bandwidth_rows(const nlohmann::json& rows, const std::string& who, double memcpy_GBps,
                          int endpoints);
// scatter: --max-bytes 256k --factor 8, to `peers` peers.
void check_scatter_rows(const nlohmann::json& rows, const std::string& who, double memcpy_GBps,
                        int peers);
// a2a-loop: `forwards` forwards of `layers` dispatch + combine pairs.
void check_a2a_loop_rows(const nlohmann::json& rows, const std::string& who, int layers,
                         int forwards);

}  // namespace pdcal_test

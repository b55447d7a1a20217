#include "calibrate/pdcal/cli_checks.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>
#include <string_view>

#include "calibrate/pdcal/peer_text.hpp"
#include "sim/core/error.hpp"

namespace pdsim::pdcal {
namespace {

std::string got(const std::string& s) {
  return ", got " + escaped_excerpt(s, 40);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Bits to shift for a size suffix, or nullopt: "", b, k, kb, kib, ... (case-insensitive).
std::optional<int> suffix_shift(std::string_view u) {
  std::string s;
  for (char c : u) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.empty() || s == "b") return 0;
  static constexpr std::string_view kUnits = "kmgt";
  auto i = kUnits.find(s[0]);
  if (i == std::string_view::npos) return std::nullopt;
  std::string_view rest = std::string_view(s).substr(1);
  if (!rest.empty() && rest != "b" && rest != "ib") return std::nullopt;
  return 10 * static_cast<int>(i + 1);
}

std::optional<uint64_t> parse_bytes(std::string_view s) {
  s = trim(s);
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  auto shift =
      suffix_shift(trim(std::string_view(end, static_cast<size_t>(s.data() + s.size() - end))));
  if (!shift || v > (UINT64_MAX >> *shift)) return std::nullopt;
  return v << *shift;
}

std::string pretty_bytes(uint64_t b) {
  if (b >= (uint64_t{1} << 30) && b % (uint64_t{1} << 30) == 0)
    return std::to_string(b >> 30) + " GiB";
  if (b >= (uint64_t{1} << 20) && b % (uint64_t{1} << 20) == 0)
    return std::to_string(b >> 20) + " MiB";
  return std::to_string(b) + " B";
}

}  // namespace

CLI::Validator byte_count(uint64_t lo, uint64_t hi) {
  const std::string expected = "expected a byte count in [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "] (" + pretty_bytes(hi) +
                               "; k/M/G suffixes are powers of 1024)";
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        auto v = parse_bytes(s);
        if (!v || *v < lo || *v > hi) return expected + got(s);
        s = std::to_string(*v);
        return {};
      },
      "BYTES");
}

CLI::Validator int_in(int64_t lo, int64_t hi) {
  const std::string expected =
      "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        int64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
          return expected + got(s);
        return {};
      },
      "INT");
}

CLI::Validator real_in(double lo, double hi, bool lo_open) {
  std::ostringstream e;
  e << "expected a finite number in " << (lo_open ? "(" : "[") << lo << ", " << hi << "]";
  const std::string expected = e.str();
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        double v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v > hi ||
            (lo_open ? v <= lo : v < lo))
          return expected + got(s);
        return {};
      },
      "NUMBER");
}

CLI::Validator seconds() {
  return real_in(0, kMaxSeconds, true).name("SECONDS");
}

CLI::Validator name_text() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        bool ok = !s.empty() && s.size() <= 255;
        for (char c : s) ok = ok && c >= 0x20 && c <= 0x7e;
        return ok ? std::string() : "expected 1..255 printable ASCII characters" + got(s);
      },
      "TEXT");
}

void check_sweep(const SweepOptions& o) {
  if (o.min_bytes > o.max_bytes)
    throw InputError("<command line>", "--min-bytes",
                     "expected at most --max-bytes (" + std::to_string(o.max_bytes) + "), got " +
                         std::to_string(o.min_bytes));
  if (o.min_iters > o.iters)
    throw InputError("<command line>", "--min-iters",
                     "expected at most --iters (" + std::to_string(o.iters) + "), got " +
                         std::to_string(o.min_iters));
}

void check_loop(const A2aLoopOptions& o) {
  if (static_cast<int64_t>(o.layers) * o.forwards > kMaxIterations)
    throw InputError("<command line>", "--layers",
                     "expected --layers × --forwards (samples per phase) at most " +
                         std::to_string(kMaxIterations) + ", got " + std::to_string(o.layers) +
                         " × " + std::to_string(o.forwards));
}

void check_buffer_bytes(uint64_t bytes, int nranks, const std::string& flags) {
  if (bytes > kMaxBufferBytes)
    throw InputError("<command line>", flags,
                     "expected a registered buffer of at most " + pretty_bytes(kMaxBufferBytes) +
                         " per rank, got " + std::to_string(bytes) + " bytes at " +
                         std::to_string(nranks) + " ranks");
}

}  // namespace pdsim::pdcal

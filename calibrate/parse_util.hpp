#pragma once
// Shared helpers of the third-party output importers (parse_*.cpp): line splitting, tokens,
// numbers with k/m/g suffixes, a small literal scanner (no std::regex: it recurses per character
// and can overflow the stack on long fuzzed lines) and the measurement envelope.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate/measurement.hpp"

namespace pdsim::parse {

// Lines without their '\n' (and a trailing '\r'); line i is numbered i + 1 in errors.
std::vector<std::string_view> lines_of(std::string_view text);
std::vector<std::string_view> tokens_of(std::string_view line);  // split on blanks
std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);

// A whole token as a finite number (strtod syntax); nullopt otherwise.
std::optional<double> to_number(std::string_view token);
// "4k" → 4096, "1m" → 1048576, "=1k" → 1024 ('=' prefix allowed), "7.8m" → 7.8·2^20.
std::optional<double> to_size(std::string_view token);

[[noreturn]] void fail_line(const std::string& file, size_t line_no, const std::string& expected);

// A measured quantity of a row (latency, bandwidth, rate, size, count): finite and >= 0, else an
// error naming the line and the column — a negative time is a broken run, never physics.
double measured(std::optional<double> v, std::string_view column, const std::string& file,
                size_t line_no);
// A word of the tool's output kept as a JSON string (a data type, a phase): printable UTF-8, else
// an error (the measurement file could not be written as JSON).
std::string text_token(std::string_view token, const std::string& file, size_t line_no);

// Envelope with provenance {kind: measured, source: file, tool} and empty results.
Json envelope(const std::string& probe, const std::string& tool, const std::string& file);

// Cursor over one line for fixed phrases: lit() skips blanks then matches a literal.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  bool lit(std::string_view word);
  std::optional<double> number();     // skips blanks first
  std::optional<std::string> word();  // run of non-blank chars except ',' ':' '(' ')'
  bool find(std::string_view word);   // advance past the next occurrence of word
 private:
  void skip_blanks();
  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace pdsim::parse

#include "calibrate/parse_util.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim::parse {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (end == text.size() && line.empty()) break;
    out.push_back(line);
    start = end + 1;
  }
  return out;
}

static bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string_view> tokens_of(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    size_t j = i;
    while (j < line.size() && !blank(line[j])) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::optional<double> to_number(std::string_view token) {
  if (token.empty() || token.size() > 64) return std::nullopt;
  std::string t(token);
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<double> to_size(std::string_view token) {
  if (!token.empty() && token.front() == '=') token.remove_prefix(1);
  if (token.empty()) return std::nullopt;
  double mult = 1;
  switch (std::tolower(static_cast<unsigned char>(token.back()))) {
    case 'k':
      mult = 1024.0;
      break;
    case 'm':
      mult = 1024.0 * 1024;
      break;
    case 'g':
      mult = 1024.0 * 1024 * 1024;
      break;
    default:
      break;
  }
  if (mult != 1) token.remove_suffix(1);
  auto v = to_number(token);
  if (!v || *v < 0) return std::nullopt;
  return *v * mult;
}

void fail_line(const std::string& file, size_t line_no, const std::string& expected) {
  throw InputError(file, "line " + std::to_string(line_no), expected);
}

static std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

double measured(std::optional<double> v, std::string_view column, const std::string& file,
                size_t line_no) {
  if (!v) fail_line(file, line_no, "expected a number for " + std::string(column));
  if (!std::isfinite(*v) || *v < 0)
    fail_line(file, line_no,
              "expected a finite non-negative " + std::string(column) +
                  " (a measured quantity), got " + number_text(*v));
  return *v;
}

std::string text_token(std::string_view token, const std::string& file, size_t line_no) {
  const std::string escaped = excerpt(token, std::string_view::npos);
  if (escaped != token)
    fail_line(file, line_no, "expected printable UTF-8 text, got '" + excerpt(token) + "'");
  return std::string(token);
}

Json envelope(const std::string& probe, const std::string& tool, const std::string& file) {
  return {{"schema", kMeasurementSchema},
          {"probe", probe},
          {"provenance",
           {{"kind", "measured"},
            {"source", excerpt(file, std::string_view::npos)},  // a path need not be UTF-8
            {"tool", tool},
            {"note", "imported with pdsim calibrate import"}}},
          {"context", Json::object()},
          {"parameters", Json::object()},
          {"results", Json::array()}};
}

void Scanner::skip_blanks() {
  while (pos_ < s_.size() && blank(s_[pos_])) ++pos_;
}

bool Scanner::lit(std::string_view w) {
  skip_blanks();
  if (s_.substr(pos_, w.size()) != w) return false;
  pos_ += w.size();
  return true;
}

std::optional<double> Scanner::number() {
  skip_blanks();
  size_t j = pos_;
  while (j < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[j])) || s_[j] == '.' ||
                           s_[j] == '-' || s_[j] == '+' || s_[j] == 'e' || s_[j] == 'E'))
    ++j;
  auto v = to_number(s_.substr(pos_, j - pos_));
  if (v) pos_ = j;
  return v;
}

std::optional<std::string> Scanner::word() {
  skip_blanks();
  size_t j = pos_;
  while (j < s_.size() && !blank(s_[j]) && s_[j] != ',' && s_[j] != ':' && s_[j] != '(' &&
         s_[j] != ')')
    ++j;
  if (j == pos_) return std::nullopt;
  std::string w(s_.substr(pos_, j - pos_));
  pos_ = j;
  return w;
}

bool Scanner::find(std::string_view w) {
  size_t at = s_.find(w, pos_);
  if (at == std::string_view::npos) return false;
  pos_ = at + w.size();
  return true;
}

}  // namespace pdsim::parse

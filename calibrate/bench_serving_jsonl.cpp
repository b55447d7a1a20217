#include "calibrate/bench_serving_jsonl.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "calibrate/bench_serving_record.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

// Rewrites Python's non-finite float literals into JSON strings, leaving string contents alone.
std::string quote_python_literals(const std::string& s) {
  static const std::pair<std::string, std::string> kLiterals[] = {
      {"-Infinity", "\"-inf\""}, {"Infinity", "\"inf\""}, {"NaN", "\"nan\""}};
  std::string out;
  out.reserve(s.size());
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < s.size())
        out += s[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const auto& [lit, rep] : kLiterals) {
      if (s.compare(i, lit.size(), lit) == 0) {
        out += rep;
        i += lit.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r") == std::string::npos;
}

std::string field_of(int line) {
  return "line " + std::to_string(line);
}

}  // namespace

Json parse_bench_serving_line(const std::string& text, const std::string& file, int line) {
  Json j = parse_json(quote_python_literals(text), file, field_of(line),
                      "expected one JSON object per line");
  if (!j.is_object())
    throw InputError(file, field_of(line),
                     std::string("expected a JSON object, got ") + j.type_name());
  if (!j.contains("completed") || !j.at("completed").is_number())
    throw InputError(file, field_of(line),
                     "expected a bench_serving result record (numeric 'completed' missing)");
  check_bench_serving_values(j, file, field_of(line));
  return j;
}

RecordRef split_record_ref(const std::string& arg) {
  const size_t colon = arg.rfind(':');
  if (colon == std::string::npos || std::filesystem::exists(arg)) return {arg, std::nullopt};
  const std::string digits = arg.substr(colon + 1);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return {arg, std::nullopt};
  return {arg.substr(0, colon), std::stoi(digits)};
}

BenchServingRecord read_bench_serving_jsonl(const std::string& path, std::optional<int> line) {
  const std::string text = read_file(path);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  int chosen = 0;
  if (line) {
    if (*line < 1 || *line > static_cast<int>(lines.size()))
      throw InputError(path, field_of(*line),
                       "no such line (the file has " + std::to_string(lines.size()) + " lines)");
    if (blank(lines[static_cast<size_t>(*line - 1)]))
      throw InputError(path, field_of(*line), "expected a JSON object, got an empty line");
    chosen = *line;
  } else {
    for (int i = static_cast<int>(lines.size()); i >= 1 && chosen == 0; --i)
      if (!blank(lines[static_cast<size_t>(i - 1)])) chosen = i;
    if (chosen == 0)
      throw InputError(path, "", "expected at least one bench_serving JSON record, file is empty");
  }
  return {parse_bench_serving_line(lines[static_cast<size_t>(chosen - 1)], path, chosen), path,
          chosen};
}

}  // namespace pdsim

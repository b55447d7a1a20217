#pragma once
// Minimal reader of SGLang bench_serving `--output-file` JSONL (one result object appended per
// run), keeping the raw keys for validation. Python's json writes Infinity / -Infinity / NaN
// for non-finite floats (request_rate = inf); outside strings these read as the strings
// "inf" / "-inf" / "nan".
#include <optional>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct BenchServingRecord {
  Json record;
  std::string file;
  int line = 0;  // 1-based physical line
};

// The last non-blank line, or physical line `line` (1-based). InputError names the file and
// the line: unreadable file, no record, line out of range or blank, malformed JSON, not an
// object, no "completed" count.
BenchServingRecord read_bench_serving_jsonl(const std::string& path,
                                            std::optional<int> line = std::nullopt);
// FILE.jsonl:LINE names one record of an appended file (issue 28). `arg` is a path when such a
// file exists or it has no ":N" suffix; else the suffix (1 to 9 digits) is the 1-based line.
struct RecordRef {
  std::string path;
  std::optional<int> line;
};
RecordRef split_record_ref(const std::string& arg);

// One line of such a file (exposed for tests and importers).
Json parse_bench_serving_line(const std::string& text, const std::string& file, int line);

}  // namespace pdsim

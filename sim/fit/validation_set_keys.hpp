#pragma once
// The keys of a validation set file (pdsim.validation_set/1), declared once: the reader
// (validation_set.cpp) accepts exactly these, and `pdsim fields --write` generates from them the
// set's table in calibrate/README.md and docs/validation_set.schema.json (`pdsim fields --check`,
// ctest fields_docs_current, fails when either is stale). The reader itself stays hand-written:
// each key's checks (paths relative to the set, record references, exclusions by metric name) are
// in validation_set.cpp, next to its use.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct SetKey {
  const char* name;
  const char* type;  // as the table prints it
  bool required;
  const char* help;
  Json schema;  // JSON Schema of the value (without its description)
};

const std::vector<SetKey>& validation_set_keys();  // the top level
const std::vector<SetKey>& validation_run_keys();  // each element of "runs"
std::vector<std::string> key_names(const std::vector<SetKey>& keys);

// The two tables (top level, one run), Markdown.
std::string validation_set_markdown();
// A JSON Schema (draft 2020-12) of the set file.
Json validation_set_json_schema();

}  // namespace pdsim

#pragma once
// `--set a.b[2].c=value` on a JSON document: one path syntax for every JSON-driven tool (scenarios,
// packet experiments, sweeps). Keys are separated by '.', array elements are selected by '[i]'.
#include <string>
#include <utility>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct JsonPathOptions {
  // Create missing object members on the way (the caller's reader then rejects unknown leaves);
  // otherwise every key must exist already.
  bool create_missing = false;
  std::string what = "path";  // how an unknown path is called in messages ("scenario path")
};

// Splits "path=value"; the value is parsed as JSON, else taken as a string (bare words).
std::pair<std::string, Json> split_assignment(const std::string& assignment,
                                              const std::string& file);
// The node at `path` in `doc`; a missing key or element is an InputError naming `file` and path.
Json& json_at_path(Json& doc, const std::string& path, const std::string& file,
                   const JsonPathOptions& opt = {});
// Read-only lookup: nullptr when the path does not exist.
const Json* find_json_path(const Json& doc, const std::string& path);
void set_json_path(Json& doc, const std::string& path, Json value, const std::string& file,
                   const JsonPathOptions& opt = {});
void apply_json_override(Json& doc, const std::string& assignment, const std::string& file,
                         const JsonPathOptions& opt = {});

}  // namespace pdsim

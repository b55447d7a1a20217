#pragma once
// Names that become file or directory names (a scenario's `name` → out/<name>, a sweep's, a
// validation run's) are checked before use, so no input can write outside the output tree.
#include <string>
#include <string_view>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// Letters, digits, '.', '_', '-' and '+'; 1–128 characters; not starting with '.'.
bool is_safe_path_name(std::string_view name);

// node.string(), or InputError at node's path when it is not a safe path name.
std::string path_name(const JsonNode& node);

// The file's stem ("dir/a.json" → "a"), or InputError naming `field` when the stem is not a
// safe path name (then the file must carry an explicit name).
std::string path_name_from_file(const std::string& file, const std::string& field);

}  // namespace pdsim

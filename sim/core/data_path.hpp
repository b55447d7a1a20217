#pragma once
// Where catalogs, profiles and scenarios live: $PDSIM_DATA_DIR if set; else, for an installed
// binary, the data directory installed beside it (bin/../share/pdsim, when it holds models/);
// else the source tree the binary was built from. Named entries ("glm-5.1-fp8") resolve to files
// under it; a value that looks like a path (contains '/' or ends in .json) is used as given.
#include <optional>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

std::string data_root();
// kind_dir e.g. "models/catalog/llm"; returns the file path, or throws InputError naming
// `from_file`/`field` and the entries that exist.
std::string resolve_named(const std::string& kind_dir, const std::string& name,
                          const std::string& from_file, const std::string& field);
// resolve_named, then the file read and parsed; a file that is no JSON document at all (or cannot
// be read) is an InputError naming `from_file`/`field` too, since that field chose it.
JsonNode load_named(const std::string& kind_dir, const std::string& name,
                    const std::string& from_file, const std::string& field);
// A command-line argument that names a file: `arg` as given when it exists or ends in .json;
// else DIR/arg.json under the data directory (a name `pdsim list` prints; never one that climbs
// out of DIR) when that file exists; else nullopt (the caller says what it expected).
std::optional<std::string> file_or_named(const std::string& arg, const std::string& dir);
// Only the second half of file_or_named: DIR/name.json under the data directory when that file
// exists and the name does not climb out of DIR (a scenario's `base` looks there after its own
// folder, never in the working directory).
std::optional<std::string> named_file(const std::string& name, const std::string& dir);

// `path` relative to the data directory when it lies under it (what provenance records, so a
// file written on one machine names its inputs on another), else `path` unchanged.
std::string relative_to_data(const std::string& path);

}  // namespace pdsim

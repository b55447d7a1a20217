#pragma once
// A scenario's `base`: the file is the base scenario with its own fields merged on top, so a
// variant of a shipped scenario states only what differs.
//
// - The merge is a JSON merge patch (RFC 7386): objects merge key by key, arrays and values
//   replace, an explicit null removes the key (the field then takes its default; for a nullable
//   field that is what null means anyway).
// - `base` is a path relative to the folder of the file that names it, else a name `pdsim list`
//   prints (scenarios/NAME.json under the data directory), never the working directory: a file
//   means the same wherever it is run from.
// - A base may have a base of its own: at most kMaxBaseDepth links, no cycle.
// - Each base is read as a whole scenario on its own first, so an error in it names the base
//   file and the field inside it.
// - Fields declared file_relative (profile_overlays, cluster.topology_file) resolve relative to
//   the folder of the file that wrote them: a relative value from a base is made absolute when
//   merged, so the merged document means the same beside any file and from any folder.
// - The result has no `base` key: the resolved scenario stored with results is flat.
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

inline constexpr size_t kMaxBaseDepth = 16;  // links in a chain of bases

// The document of scenario file `path` with its chain of bases merged in (no `base` key), its
// errors attributed to `path`; without a base, the file as read.
JsonNode load_scenario_document(const std::string& path);

// `doc` with every file_relative field's relative path(s) prefixed by `folder` and made absolute.
Json rebase_file_relative(Json doc, const std::string& folder);

}  // namespace pdsim

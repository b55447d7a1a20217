#pragma once
// Parsed JSON files, shared within a process. A fit evaluates hundreds of runs and a validation
// set tens, each building its deployment from the same catalog and profile files: parsing them
// again was 12-14 % of `pdsim validate` on the DeepSeek-R1 set (72 runs). A document is kept by
// its path together with the file's bytes, which are read every time, so a file rewritten during
// the process is parsed again and a cached document is always the parse of what is on disk now.
// Documents are immutable (shared as const); a failed parse is not kept. Files above
// kMaxCachedFileBytes, or beyond kMaxCachedBytes in all, are parsed every time (bounded memory).
// Worker processes forked after a load inherit the parent's entries.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "sim/core/json_reader.hpp"

namespace pdsim {

constexpr uint64_t kMaxCachedFileBytes = 4ULL << 20;
constexpr uint64_t kMaxCachedBytes = 64ULL << 20;

// The document `parse(bytes)` gives for `path`'s current `bytes`, parsed once per distinct bytes.
std::shared_ptr<const Json> parsed_file(const std::string& path, const std::string& bytes,
                                        const std::function<Json(const std::string&)>& parse);

}  // namespace pdsim

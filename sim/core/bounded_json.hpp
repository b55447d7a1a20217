#pragma once
// The one JSON parser for everything pdsim reads (input files, --set values, JSON Lines of tools'
// output). Bounded: objects and arrays nest at most kMaxJsonDepth levels, so a depth bomb fails
// with an InputError instead of overflowing the stack later (dump, copy, compare recurse); and a
// key repeated in one object is an error naming its path instead of silently keeping one value.
#include <cstddef>
#include <string>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/core/json_reader.hpp"

namespace pdsim {

// The deepest shipped file nests 8 levels (a fabric profile's fit report), an output embedding
// whole profiles ~12; 128 leaves room for any hand-written file while keeping the recursion of
// nlohmann's dump/copy/compare a few tens of KB of stack.
inline constexpr size_t kMaxJsonDepth = 128;

// The text is not JSON at all. Its own type so that callers that take a bare word instead
// (--set a=b) or tolerate a torn last line can tell it from a depth or duplicate-key error.
class JsonSyntaxError : public InputError {
 public:
  using InputError::InputError;
};

// Parses `text` from `file`; errors are InputErrors naming the file and the path inside the
// document, under `field` when given (e.g. "line 3" of a JSON Lines file). A syntax error is a
// JsonSyntaxError reading "<what>: <parser message>" with the offending token cut short.
Json parse_json(std::string_view text, const std::string& file, const std::string& field = "",
                const std::string& what = "expected valid JSON");

}  // namespace pdsim

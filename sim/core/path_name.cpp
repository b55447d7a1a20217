#include "sim/core/path_name.hpp"

#include "sim/core/error.hpp"

namespace pdsim {
namespace {
constexpr const char* kExpected =
    "a name usable as a file name: 1-128 letters, digits, '.', '_', '-' or '+', not starting "
    "with '.'";
}

bool is_safe_path_name(std::string_view name) {
  if (name.empty() || name.size() > 128 || name.front() == '.') return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == '+';
    if (!ok) return false;
  }
  return true;
}

std::string path_name(const JsonNode& node) {
  std::string s = node.string();
  if (!is_safe_path_name(s)) node.fail(kExpected);
  return s;
}

std::string path_name_from_file(const std::string& file, const std::string& field) {
  std::string stem = file.substr(file.rfind('/') + 1);
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0)
    stem.resize(stem.size() - 5);
  if (!is_safe_path_name(stem))
    throw InputError(file, field,
                     "missing, and the file name's stem is not " + std::string(kExpected) +
                         ": give an explicit name");
  return stem;
}

}  // namespace pdsim

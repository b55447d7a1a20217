#include "sim/core/data_path.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {

namespace {

// bin/../share/pdsim of the running executable when `cmake --install` put it there (the build
// tree's binaries have no such directory beside them).
std::string installed_data_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path dir = (exe.parent_path() / PDSIM_DATA_FROM_BIN).lexically_normal();
  return fs::is_directory(dir / "models", ec) ? dir.string() : std::string();
}

}  // namespace

std::string data_root() {
  if (const char* env = std::getenv("PDSIM_DATA_DIR"); env && *env) return env;
  static const std::string installed = installed_data_dir();
  return installed.empty() ? PDSIM_SOURCE_DIR : installed;
}

std::string resolve_named(const std::string& kind_dir, const std::string& name,
                          const std::string& from_file, const std::string& field) {
  namespace fs = std::filesystem;
  const bool looks_like_path =
      name.find('/') != std::string::npos || (name.size() > 5 && name.ends_with(".json"));
  // The non-throwing exists(): a name too long for the file system (ENAMETOOLONG) is just absent.
  std::error_code ec;
  if (looks_like_path) {
    if (!fs::exists(name, ec))
      throw InputError(from_file, field, "file '" + excerpt(name) + "' does not exist");
    return name;
  }
  fs::path dir = fs::path(data_root()) / kind_dir;
  fs::path file = dir / (name + ".json");
  if (fs::exists(file, ec)) return file.string();
  std::vector<std::string> known;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") known.push_back(e.path().stem().string());
  std::sort(known.begin(), known.end());
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  throw InputError(
      from_file, field,
      "unknown name '" + excerpt(name) + "' (known in " + kind_dir + ": " + list + ")");
}

JsonNode load_named(const std::string& kind_dir, const std::string& name,
                    const std::string& from_file, const std::string& field) {
  const std::string path = resolve_named(kind_dir, name, from_file, field);
  try {
    return JsonNode::load_file(path);
  } catch (const InputError& e) {
    // An error inside the document (a field path, a nesting bomb) already says where it is.
    if (!e.field().empty() && e.field() != "<root>") throw;
    throw InputError(
        from_file, field,
        "expected '" + excerpt(path) + "' to be a JSON document (" + e.expected() + ")");
  }
}

std::optional<std::string> file_or_named(const std::string& arg, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(arg, ec) || arg.ends_with(".json")) return arg;
  return named_file(arg, dir);
}

std::optional<std::string> named_file(const std::string& name, const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path rel(name + ".json");
  bool climbs = name.empty() || rel.is_absolute();
  for (const auto& part : rel) climbs = climbs || part == "..";
  const fs::path named = fs::path(data_root()) / dir / rel;
  std::error_code ec;
  if (!climbs && fs::is_regular_file(named, ec)) return named.string();
  return std::nullopt;
}

std::string relative_to_data(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(path), fs::absolute(data_root()), ec);
  if (ec || rel.empty() || *rel.begin() == "..") return path;
  return rel.generic_string();
}

}  // namespace pdsim

#include "sim/core/output_target.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace fs = std::filesystem;

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return false;
  const fs::path cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

void check_output_file(const std::string& flag, const std::string& path,
                       const std::vector<std::string>& inputs) {
  for (const auto& in : inputs)
    if (!in.empty() && same_file(path, in))
      throw InputError(flag, "",
                       "a file other than this command's inputs, got " + excerpt(path) +
                           " (it is " + excerpt(in) + ")");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(flag, "",
                     "a regular file or a new name, got " + excerpt(path) +
                         " (pdsim does not replace links, devices, FIFOs or directories)");
  // The nearest folder that exists must be a writable directory (the rest is created).
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  while (!fs::exists(dir, ec) && dir.has_parent_path() && dir != dir.parent_path())
    dir = dir.parent_path();
  if (!fs::is_directory(dir, ec))
    throw InputError(flag, "",
                     "a path under a directory, got " + excerpt(path) + " (" +
                         excerpt(dir.string()) + " is not a directory)");
  if (::access(dir.c_str(), W_OK) != 0) throw IoError(dir.string(), "cannot write here", errno);
}

}  // namespace pdsim

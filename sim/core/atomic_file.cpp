#include "sim/core/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"

namespace pdsim {

void write_file_atomic(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) {
    fs::create_directories(target.parent_path(), ec);
    if (ec) throw InputError(path, "", "cannot create directory: " + ec.message());
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError(path, "", "cannot open for writing: " + std::string(std::strerror(errno)));
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path, "", "write failed");
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw InputError(path, "", "cannot rename temporary file into place: " + ec.message());
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file for reading");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace pdsim

#include "sim/core/error.hpp"

#include <cstring>

namespace pdsim {
namespace {
std::string format(const std::string& file, const std::string& field, const std::string& expected) {
  std::string msg = file.empty() ? std::string("<input>") : file;
  if (!field.empty()) msg += ": field '" + field + "'";
  msg += ": " + expected;
  return msg;
}
}  // namespace

InputError::InputError(std::string file, std::string field, std::string expected)
    : std::runtime_error(format(file, field, expected)),
      file_(std::move(file)),
      field_(std::move(field)),
      expected_(std::move(expected)) {}

IoError::IoError(const std::string& path, const std::string& what, int err)
    : std::runtime_error(path + ": " + what +
                         (err != 0 ? std::string(": ") + std::strerror(err) : "")) {}

}  // namespace pdsim

#include "sim/core/error.hpp"

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

}  // namespace pdsim

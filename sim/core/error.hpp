#pragma once
// Errors that reach the user. Every input problem names the file, the field path and what was
// expected; an infeasible deployment says why it cannot run instead of being simulated.
#include <stdexcept>
#include <string>

namespace pdsim {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string field, std::string expected);
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }
  const std::string& expected() const { return expected_; }

 private:
  std::string file_, field_, expected_;
};

class InfeasibleError : public std::runtime_error {
 public:
  explicit InfeasibleError(const std::string& why)
      : std::runtime_error("infeasible deployment: " + why) {}
};

}  // namespace pdsim

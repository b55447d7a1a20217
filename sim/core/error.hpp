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

// A file that could not be read or written for a reason outside the input's content (disk full,
// permission, I/O error). Carries the path and the errno text. Exit code 4.
class IoError : public std::runtime_error {
 public:
  IoError(const std::string& path, const std::string& what, int err);
};

// An error that crossed a process boundary (a worker's exception, a dead worker): keeps the exit
// code of the error it stands for.
class PropagatedError : public std::runtime_error {
 public:
  PropagatedError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// The exit codes every pdsim and pdcal command documents (README "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,    // a bug: an unexpected exception; the message says so
  kExitBadInput = 2,    // InputError, a bad command line
  kExitInfeasible = 3,  // InfeasibleError, a probe failure
  kExitIo = 4,          // IoError
};

}  // namespace pdsim

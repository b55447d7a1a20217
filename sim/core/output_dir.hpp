#pragma once
// A command's output directory, written as a unit. Files go to a staging directory beside the
// target (<parent>/.<name>.staging.<pid>); commit() fsyncs them and swaps the staging directory
// with the target in one renameat2(RENAME_EXCHANGE) (a plain rename when there is no target), then
// deletes the old tree. Whenever the process dies, the target is the complete old directory or the
// complete new one, never a mix. Without commit (an error), the staging directory is removed and
// the target is untouched. Stale staging directories of dead processes are removed on the next
// run. A target that exists and was not written by pdsim (no marker file, not empty) is refused,
// so `--out ~` can never delete a user's files; so is a symbolic link or anything that is not a
// directory. One writer per target: a second one is refused while the first holds the lock file
// <parent>/.<name>.lock (flock, released when the writer exits or dies; the empty file stays).
#include <string>

namespace pdsim {

class OutputDir {
 public:
  explicit OutputDir(std::string target);  // IoError/InputError if it cannot be prepared
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::string& target() const { return target_; }
  const std::string& staging() const { return staging_; }
  void commit();

  static constexpr const char* kMarker = ".pdsim-output";

 private:
  std::string target_, staging_;
  bool committed_ = false;
  int lock_fd_ = -1;
};

}  // namespace pdsim

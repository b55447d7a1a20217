#include "sim/core/output_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string_view>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace fs = std::filesystem;
namespace {

// Only pdsim's marker identifies its output: a summary.json (what pdsim versions before the
// marker wrote) may as well be a user's, so a directory holding one is refused too.
bool written_by_pdsim_or_empty(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_empty(dir, ec)) return true;
  return fs::is_regular_file(fs::symlink_status(dir / OutputDir::kMarker, ec));
}

// Staging directories left by processes that no longer exist (killed mid-run).
void remove_stale_staging(const fs::path& parent, const std::string& name) {
  const std::string prefix = "." + name + ".staging.";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) != 0) continue;
    const std::string pid_text = f.substr(prefix.size());
    // Not a pid this code wrote (empty, not digits, beyond pid_t): someone else's, left alone.
    if (pid_text.empty() || pid_text.size() > 9 ||
        pid_text.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const long pid = std::stol(pid_text);
    if (pid == ::getpid() || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH))
      fs::remove_all(e.path(), ec);
  }
}

void fsync_tree(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() || e.is_directory()) fsync_path(e.path().string());
  fsync_path(dir.string());
}

}  // namespace

OutputDir::OutputDir(std::string target) : target_(std::move(target)) {
  fs::path t = fs::path(target_).lexically_normal();
  if (t.has_filename() == false) t = t.parent_path();  // "out/x/" names out/x
  const std::string name = t.filename().string();
  if (name.empty() || name == "." || name == "..")
    throw InputError(excerpt(target_), "", "expected an output directory name, not '" + name + "'");
  const fs::path parent = t.has_parent_path() ? t.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(t, ec)))
    throw InputError(target_, "",
                     "a directory, not a symbolic link (pdsim replaces its output directory as "
                     "a whole: give the directory the link points to)");
  if (fs::exists(t, ec) && !fs::is_directory(t, ec))
    throw InputError(target_, "", "exists and is not a directory");
  if (fs::is_directory(t, ec) && !written_by_pdsim_or_empty(t))
    throw InputError(target_, "",
                     "exists and was not written by pdsim (no " + std::string(kMarker) +
                         "); refusing to replace it: choose another output directory");
  fs::create_directories(parent, ec);
  if (ec) throw IoError(parent.string(), "cannot create directory", ec.value());
  // One writer per target: a lock file beside it, held until this object goes (the kernel drops
  // it when the process dies). It stays behind, empty, so that two writers never lock different
  // files of the same name.
  const std::string lock = (parent / ("." + name + ".lock")).string();
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock_fd_ < 0) throw IoError(lock, "cannot open the output lock", errno);
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    if (err == EWOULDBLOCK)
      throw InputError(target_, "",
                       "an output directory no other pdsim is writing (" + lock +
                           " is locked by another process): wait for it or choose another");
    throw IoError(lock, "cannot lock", err);
  }
  try {
    remove_stale_staging(parent, name);
    target_ = t.string();
    const std::string staging =
        (parent / ("." + name + ".staging." + std::to_string(::getpid()))).string();
    if (::mkdir(staging.c_str(), 0755) != 0)
      throw IoError(staging, "cannot create the staging directory", errno);
    staging_ = staging;
    write_file_atomic(staging_ + "/" + kMarker,
                      "written by pdsim as one unit (sim/core/output_dir.hpp)\n");
  } catch (...) {
    // No destructor runs for a constructor that throws: undo here.
    std::error_code rm;
    if (!staging_.empty()) fs::remove_all(staging_, rm);
    ::close(lock_fd_);
    throw;
  }
}

OutputDir::~OutputDir() {
  if (!committed_ && !staging_.empty()) {
    std::error_code ec;
    fs::remove_all(staging_, ec);  // best effort: a leftover is removed by the next run
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

void OutputDir::commit() {
  fsync_tree(staging_);
  std::error_code ec;
  if (fs::exists(target_, ec)) {
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
      throw IoError(target_, "cannot swap the new output directory into place", errno);
  } else if (::rename(staging_.c_str(), target_.c_str()) != 0) {
    throw IoError(target_, "cannot rename the new output directory into place", errno);
  }
  committed_ = true;
  const fs::path parent =
      fs::path(target_).has_parent_path() ? fs::path(target_).parent_path() : fs::path(".");
  fsync_path(parent.string());
  fs::remove_all(staging_, ec);  // now the old tree (if any)
}

}  // namespace pdsim

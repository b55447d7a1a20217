#include "sim/core/malloc_hugepages.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace pdsim {
#ifndef PDSIM_SANITIZE  // sanitizers replace malloc: nothing to tune
namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

bool thp_available() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  if (!std::getline(f, mode)) return false;
  return mode.find("[always]") != std::string::npos || mode.find("[madvise]") != std::string::npos;
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

void reexec_with_malloc_hugepages(char** argv) {
  if (env_or_empty("PDSIM_MALLOC_HUGEPAGES") == "0") return;
  const std::string tunables = env_or_empty("GLIBC_TUNABLES");
  if (tunables.find(kTunable) != std::string::npos) return;
  if (env_or_empty("LD_PRELOAD").find("vgpreload") != std::string::npos) return;  // valgrind
  if (!thp_available()) return;
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return;
  exe[n] = '\0';
  const std::string value = (tunables.empty() ? "" : tunables + ":") + kTunable + "=1";
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv(exe, argv);
  // exec failed: carry on in this process, environment as it was.
  if (tunables.empty())
    ::unsetenv("GLIBC_TUNABLES");
  else
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
}
#else
void reexec_with_malloc_hugepages(char**) {}
#endif

}  // namespace pdsim

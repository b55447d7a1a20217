#include "sim/core/parsed_file_cache.hpp"

#include <mutex>
#include <unordered_map>

namespace pdsim {
namespace {

struct Entry {
  std::string bytes;
  std::shared_ptr<const Json> doc;
};

struct Cache {
  std::mutex mutex;
  std::unordered_map<std::string, Entry> by_path;
  uint64_t bytes = 0;  // Σ entries' file sizes
};

Cache& cache() {
  static Cache c;  // an I/O cache: what it returns depends only on the file's bytes
  return c;
}

}  // namespace

std::shared_ptr<const Json> parsed_file(const std::string& path, const std::string& bytes,
                                        const std::function<Json(const std::string&)>& parse) {
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    const auto it = c.by_path.find(path);
    if (it != c.by_path.end() && it->second.bytes == bytes) return it->second.doc;
  }
  auto doc = std::make_shared<const Json>(parse(bytes));  // throws for a bad document: not kept
  if (bytes.size() > kMaxCachedFileBytes) return doc;
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.by_path.find(path);
  if (it != c.by_path.end()) {
    c.bytes -= it->second.bytes.size();
    c.by_path.erase(it);
  }
  if (c.bytes + bytes.size() > kMaxCachedBytes) return doc;
  c.bytes += bytes.size();
  c.by_path.emplace(path, Entry{bytes, doc});
  return doc;
}

}  // namespace pdsim

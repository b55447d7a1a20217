#include "sim/sweep/results_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include "sim/core/atomic_file.hpp"
#include "sim/core/bounded_json.hpp"
#include "sim/core/error.hpp"
#include "sim/core/excerpt.hpp"

namespace pdsim {
namespace {

std::string line_field(size_t n) {
  return "line " + std::to_string(n);
}

// A results line must at least carry its sweep, point index (an int: get<int> below would wrap
// anything larger) and id.
bool well_formed(const Json& j) {
  return j.is_object() && j.contains("sweep") && j["sweep"].is_string() && j.contains("point") &&
         j["point"].is_number_integer() && j["point"].get<int64_t>() >= 0 &&
         j["point"].get<int64_t>() <= INT_MAX && j.contains("id") && j["id"].is_string();
}

// One results line; a line that is not JSON at all is nullopt (a torn or foreign line), while a
// too-deep or repeated-key line is an InputError like any other input.
std::optional<Json> parse_line(const std::string& line, const std::string& path, size_t line_no) {
  try {
    return parse_json(line, path, line_field(line_no));
  } catch (const JsonSyntaxError&) {
    return std::nullopt;
  }
}

}  // namespace

std::map<int, Json> load_results_for_resume(const std::string& path,
                                            const std::string& sweep_hash) {
  std::map<int, Json> done;
  if (!std::filesystem::exists(path)) return done;
  const std::string text = read_file(path);
  size_t pos = 0, line_no = 0, good_end = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    ++line_no;
    const bool complete = nl != std::string::npos;
    const std::string line = text.substr(pos, complete ? nl - pos : std::string::npos);
    const size_t next = complete ? nl + 1 : text.size();
    const std::optional<Json> parsed = parse_line(line, path, line_no);
    const Json j = parsed.value_or(Json());
    if (!complete || !parsed || !well_formed(j)) {
      if (next >= text.size()) break;  // torn last line: cut below
      throw InputError(path, line_field(line_no), "not a sweep results line (file damaged?)");
    }
    if (j["sweep"] != sweep_hash)
      throw InputError(
          path, line_field(line_no),
          "belongs to sweep " + excerpt(j["sweep"].get<std::string>()) + ", not " + sweep_hash +
              " (the sweep file or its base scenario changed; use another results file)");
    done.emplace(j["point"].get<int>(), j);  // a repeated point keeps its first line
    good_end = next;
    pos = next;
  }
  if (good_end < text.size()) {
    if (::truncate(path.c_str(), static_cast<off_t>(good_end)) != 0)
      throw InputError(path, "",
                       std::string("cannot cut the torn last line: ") + std::strerror(errno));
  }
  return done;
}

ResultsAppender::ResultsAppender(const std::string& path) : path_(path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError(path, "cannot open for appending", errno);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path, "", "another sweep is writing this results file");
  }
}

ResultsAppender::~ResultsAppender() {
  if (fd_ >= 0) ::close(fd_);
}

void ResultsAppender::append(const Json& line) {
  write_all(fd_, line.dump() + "\n", path_);
  if (::fsync(fd_) != 0) throw IoError(path_, "fsync failed", errno);
}

std::vector<Json> read_results(const std::string& path) {
  std::vector<Json> out;
  std::istringstream in(read_file(path));
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::optional<Json> parsed = parse_line(line, path, line_no);
    const Json j = parsed.value_or(Json());
    if (!parsed || !well_formed(j))
      throw InputError(path, line_field(line_no),
                       "expected a sweep results line (JSON with sweep, point, id)");
    out.push_back(j);
  }
  return out;
}

void sort_by_point(std::vector<Json>& lines) {
  std::stable_sort(lines.begin(), lines.end(), [](const Json& a, const Json& b) {
    return a["point"].get<int>() < b["point"].get<int>();
  });
}

std::vector<Json> merge_results(const std::vector<std::string>& inputs, const std::string& out,
                                std::vector<int>* missing) {
  if (inputs.empty()) throw InputError("", "", "sweep merge: expected at least one results file");
  std::map<std::string, Json> by_id;
  std::string sweep, sweep_file;
  int total = -1;
  for (const auto& path : inputs) {
    const std::vector<Json> lines = read_results(path);
    for (size_t i = 0; i < lines.size(); ++i) {
      const Json& j = lines[i];
      if (sweep.empty()) {
        sweep = j["sweep"].get<std::string>();
        sweep_file = path;
      } else if (j["sweep"] != sweep) {
        throw InputError(path, line_field(i + 1),
                         "belongs to sweep " + excerpt(j["sweep"].get<std::string>()) + ", but " +
                             sweep_file + " to sweep " + excerpt(sweep) + " (not the same sweep)");
      }
      if (j.contains("points_total") && j["points_total"].is_number_integer())
        total = j["points_total"].get<int>();
      const std::string id = j["id"].get<std::string>();
      auto it = by_id.find(id);
      if (it == by_id.end())
        by_id.emplace(id, j);
      else if (it->second.value("status", "") != "ok" && j.value("status", "") == "ok")
        it->second = j;
    }
  }
  std::vector<Json> merged;
  for (auto& [id, j] : by_id) merged.push_back(std::move(j));
  sort_by_point(merged);
  if (missing) {
    missing->clear();
    std::set<int> have;
    for (const auto& j : merged) have.insert(j["point"].get<int>());
    for (int p = 0; p < total; ++p)
      if (!have.count(p)) missing->push_back(p);
  }
  std::string text;
  for (const auto& j : merged) text += j.dump() + "\n";
  write_file_atomic(out, text);
  return merged;
}

}  // namespace pdsim

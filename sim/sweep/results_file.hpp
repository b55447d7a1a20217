#pragma once
// The results file of a sweep: one JSON object per line, one line per finished point, appended
// and fsync'ed line by line so that a killed sweep loses at most the line being written.
// docs/sweep.md lists the fields of a line.
#include <map>
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// Lines already in `path` (absent file: none), by point index. A torn last line (no newline, or
// not JSON) is cut off the file; an unreadable line before it, or a line of another sweep (its
// "sweep" hash differs), is an InputError naming the file and the line.
std::map<int, Json> load_results_for_resume(const std::string& path, const std::string& sweep_hash);

// Appends lines to a results file, holding an exclusive lock on it (a second sweep writing the
// same file is refused).
class ResultsAppender {
 public:
  explicit ResultsAppender(const std::string& path);
  ~ResultsAppender();
  ResultsAppender(const ResultsAppender&) = delete;
  ResultsAppender& operator=(const ResultsAppender&) = delete;
  void append(const Json& line);  // one write() of line + '\n', then fsync

 private:
  std::string path_;
  int fd_ = -1;
};

// Every line of a complete results file (a torn last line is an error here), in file order.
std::vector<Json> read_results(const std::string& path);

// Merges shard files: one line per point id (a point present twice keeps its "ok" line, else the
// first), all of the same sweep, sorted by point index (the canonical order), written atomically
// to `out`. Returns the merged lines; `missing` gets the point indices absent from every input.
std::vector<Json> merge_results(const std::vector<std::string>& inputs, const std::string& out,
                                std::vector<int>* missing = nullptr);

// Lines sorted by point index (the canonical order for merge and reports).
void sort_by_point(std::vector<Json>& lines);

}  // namespace pdsim

#pragma once
// What long work shows while it runs (issue 28: a 20-seed packet compare ran 1.5 min, a
// sensitivity study 33 s, in silence): how many of its simulations have finished, on stderr.
//
// A command opens one Progress for the work it reports; the process pool (sim/core/process_pool)
// adds each batch of tasks to the total of the one open and counts each task as it finishes, so
// the code between the command and the pool (seeds, parameter samples, sensitivity, a validation
// set) passes nothing through. It is display state only, like the terminal it draws on: no output
// file depends on it, and a forked worker forgets it (only the process that opened it draws).
//
// Modes: `bar` redraws one line in place ("\r"), for a terminal, and only once the work has taken
// a second (a quick run stays quiet); `lines` writes a line at each tenth done and at the end, for
// logs (a batch job's stderr); `off` draws nothing. `auto` (the CLI's default) is `bar` when stderr
// is a terminal, else `off`.
#include <cstddef>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace pdsim {

enum class ProgressMode { off, bar, lines };

// "auto", "bar", "lines" or "off" (the CLI's --progress); auto looks at stderr.
ProgressMode progress_mode(const std::string& name);

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds since any fixed origin

  // `total` fixed by the owner (a sweep knows its points), or grown by the pool's batches.
  // `out` and `now_s` default to stderr and the steady clock (tests pass their own).
  Progress(std::string what, ProgressMode mode, std::optional<size_t> total = std::nullopt,
           std::FILE* out = nullptr, Clock now_s = {});
  ~Progress();  // ends the drawn line; closes this one
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add_total(size_t n);  // ignored when the owner fixed the total
  void advance(size_t k = 1);
  size_t done() const { return done_; }
  size_t total() const { return total_; }

  // The one a command opened in this process, or nullptr.
  static Progress* current();
  // Called in a forked child: it must not draw on its parent's terminal, nor finish its line.
  static void forget_in_child();

 private:
  void draw(bool final);

  std::string what_;
  ProgressMode mode_;
  bool fixed_total_;
  size_t total_ = 0, done_ = 0;
  std::FILE* out_;
  Clock now_s_;
  double t0_s_;
  bool drawn_ = false;
  int tenths_written_ = 0;  // `lines`: the last tenth reported
  Progress* outer_;         // the one open before this (restored on close)
};

}  // namespace pdsim

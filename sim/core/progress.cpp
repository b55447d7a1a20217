#include "sim/core/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace pdsim {
namespace {

// The open Progress of this process: display state, like the terminal it draws on (header).
Progress* g_current = nullptr;

constexpr double kBarQuietS = 1.0;  // `bar` stays silent for work shorter than this
constexpr int kBarWidth = 30;

double steady_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string minutes(double s) {
  const long r = std::max(0L, std::lround(s));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ldm%02lds", r / 60, r % 60);
  return buf;
}

}  // namespace

ProgressMode progress_mode(const std::string& name) {
  if (name == "auto") return ::isatty(STDERR_FILENO) ? ProgressMode::bar : ProgressMode::off;
  if (name == "bar") return ProgressMode::bar;
  if (name == "lines") return ProgressMode::lines;
  if (name == "off") return ProgressMode::off;
  throw std::invalid_argument("progress mode '" + name + "': expected auto, bar, lines or off");
}

Progress::Progress(std::string what, ProgressMode mode, std::optional<size_t> total, std::FILE* out,
                   Clock now_s)
    : what_(std::move(what)),
      mode_(mode),
      fixed_total_(total.has_value()),
      total_(total.value_or(0)),
      out_(out ? out : stderr),
      now_s_(now_s ? std::move(now_s) : Clock(steady_s)),
      t0_s_(now_s_()),
      outer_(g_current) {
  g_current = this;
}

Progress::~Progress() {
  if (g_current == this) g_current = outer_;
  if (mode_ == ProgressMode::off) return;
  if (mode_ == ProgressMode::lines && done_ > 0) draw(true);
  if (mode_ == ProgressMode::bar && drawn_) {
    draw(true);
    std::fputc('\n', out_);
    std::fflush(out_);
  }
}

Progress* Progress::current() {
  return g_current;
}

void Progress::forget_in_child() {
  // Workers _exit without unwinding into their parent's frames, so the parent's object is never
  // destroyed (nor its line finished) in a child; only the pointer must go.
  g_current = nullptr;
}

void Progress::add_total(size_t n) {
  if (fixed_total_) return;
  total_ += n;
  // `lines`: tenths of the grown total (a second batch after a first one finished).
  if (total_ > 0) tenths_written_ = static_cast<int>(done_ * 10 / total_);
}

void Progress::advance(size_t k) {
  done_ += k;
  if (mode_ == ProgressMode::off) return;
  if (mode_ == ProgressMode::lines) {
    // Each tenth below the whole; the whole is the closing line (more batches may come).
    const int tenths = total_ > 0 ? static_cast<int>(std::min<size_t>(done_ * 10 / total_, 10)) : 0;
    if (tenths > tenths_written_ && tenths < 10) draw(false);
    tenths_written_ = std::max(tenths_written_, tenths);
    return;
  }
  if (drawn_ || now_s_() - t0_s_ >= kBarQuietS) draw(false);
}

void Progress::draw(bool final) {
  const double el = now_s_() - t0_s_;
  const size_t total = std::max(total_, done_);
  std::string when;
  if (final)
    when = "done in " + minutes(el);
  else if (done_ > 0 && done_ < total)
    when = "ETA " + minutes(el / static_cast<double>(done_) * static_cast<double>(total - done_));
  if (mode_ == ProgressMode::lines) {
    const int pct = total > 0 ? static_cast<int>(done_ * 100 / total) : 0;
    std::fprintf(out_, "%s: %zu/%zu (%d %%)%s%s\n", what_.c_str(), done_, total, pct,
                 when.empty() ? "" : ", ", when.c_str());
  } else {
    const size_t fill = total > 0 ? done_ * kBarWidth / total : kBarWidth;
    std::string bar(fill, '#');
    bar.resize(kBarWidth, '.');
    std::fprintf(out_, "\r%s [%s] %zu/%zu %s   ", what_.c_str(), bar.c_str(), done_, total,
                 when.c_str());
  }
  std::fflush(out_);
  drawn_ = true;
}

}  // namespace pdsim

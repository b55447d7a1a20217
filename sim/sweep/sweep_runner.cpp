#include "sim/sweep/sweep_runner.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "sim/sweep/point_eval.hpp"
#include "sim/sweep/results_file.hpp"

namespace pdsim {
namespace {

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  const SweepPoint* point = nullptr;
  std::string out;
};

void write_all_or_exit(int fd, const std::string& s) {
  const char* p = s.data();
  size_t n = s.size();
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ::_exit(4);
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// The worker: evaluates one point, writes its line to the pipe, exits. It dies with the sweep
// (PR_SET_PDEATHSIG), so a killed sweep leaves no stray simulations behind.
Worker start_worker(const SweepSpec& spec, const SweepPoint& p, const SweepRunOptions& opt) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(5);
    std::string text;
    try {
      text = (opt.evaluate ? opt.evaluate(spec, p) : evaluate_point(spec, p, true)).dump();
    } catch (const std::exception& e) {
      text = Json{{"worker_error", e.what()}}.dump();
    }
    write_all_or_exit(fds[1], text);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  Worker w;
  w.pid = pid;
  w.fd = fds[0];
  w.point = &p;
  return w;
}

// The worker's line, or an "error" line when it died or wrote something unusable.
Json finish_worker(const SweepSpec& spec, Worker& w) {
  ::close(w.fd);
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  Json line = Json::parse(w.out, nullptr, false);
  std::string why;
  if (WIFSIGNALED(status))
    why = "worker process died with signal " + std::to_string(WTERMSIG(status));
  else if (line.is_discarded() || !line.is_object())
    why = "worker process returned no result";
  else if (line.contains("worker_error"))
    why = line["worker_error"].get<std::string>();
  if (why.empty()) return line;
  const SweepPoint& p = *w.point;
  return Json{{"sweep", spec.hash},
              {"point", p.index},
              {"id", p.id},
              {"overrides", p.overrides},
              {"points_total", spec.points.size()},
              {"status", "error"},
              {"reason", why},
              {"gpus", 0},
              {"summary", nullptr}};
}

class Progress {
 public:
  Progress(bool on, int total) : on_(on), total_(total), t0_(std::chrono::steady_clock::now()) {}
  void update(int done) {
    if (!on_) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const int width = 30;
    const int fill = total_ > 0 ? done * width / total_ : width;
    std::string bar(static_cast<size_t>(fill), '#');
    bar.resize(width, '.');
    char eta[64] = "ETA --";
    if (done > 0 && done < total_) {
      const int s = static_cast<int>(el / done * (total_ - done) + 0.5);
      std::snprintf(eta, sizeof eta, "ETA %dm%02ds", s / 60, s % 60);
    } else if (done >= total_) {
      std::snprintf(eta, sizeof eta, "%.0fs", el);
    }
    std::fprintf(stderr, "\r[%s] %d/%d %s   ", bar.c_str(), done, total_, eta);
    std::fflush(stderr);
  }
  void end() {
    if (on_) std::fprintf(stderr, "\n");
  }

 private:
  bool on_;
  int total_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace

SweepRunStats run_sweep(const SweepSpec& spec, const SweepRunOptions& opt, std::ostream& log) {
  SweepRunStats st;
  const std::map<int, Json> done = load_results_for_resume(opt.results_path, spec.hash);
  ResultsAppender out(opt.results_path);
  std::vector<const SweepPoint*> pending;
  for (const auto& p : spec.points) {
    if (!opt.shard.contains(p.index)) continue;
    ++st.in_shard;
    if (done.count(p.index))
      ++st.resumed;
    else
      pending.push_back(&p);
  }
  // Feasibility first: infeasible points are written (with their reasons) without simulating.
  std::deque<const SweepPoint*> queue;
  for (const SweepPoint* p : pending) {
    const PointCheck c = check_point(spec, *p);
    if (c.feasible) {
      queue.push_back(p);
      continue;
    }
    out.append(infeasible_line(spec, *p, c));
    ++st.infeasible;
    log << "infeasible point " << p->index << " " << p->overrides.dump() << ": " << c.reason
        << "\n";
  }
  Progress bar(opt.progress, static_cast<int>(queue.size()));
  bar.update(0);
  std::vector<Worker> running;
  const size_t jobs = static_cast<size_t>(std::max(1, opt.jobs));
  while (!queue.empty() || !running.empty()) {
    while (running.size() < jobs && !queue.empty()) {
      running.push_back(start_worker(spec, *queue.front(), opt));
      queue.pop_front();
    }
    std::vector<pollfd> fds;
    for (const auto& w : running) fds.push_back({w.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (size_t i = running.size(); i-- > 0;) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[1 << 16];
      const ssize_t r = ::read(running[i].fd, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r > 0) {
        running[i].out.append(buf, static_cast<size_t>(r));
        continue;
      }
      const Json line = finish_worker(spec, running[i]);
      out.append(line);
      ++st.ran;
      if (line.value("status", "") == "error") {
        ++st.errors;
        log << "error at point " << line["point"] << ": " << line.value("reason", "") << "\n";
      }
      running.erase(running.begin() + static_cast<long>(i));
      bar.update(st.ran);
    }
  }
  bar.end();
  return st;
}

}  // namespace pdsim

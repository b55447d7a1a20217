#include "calibrate/pdcal/transport.hpp"

#include <sched.h>
#include <unistd.h>

#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {
namespace {
// Busy-polling peers on an oversubscribed host (two ranks on two shared cores) would starve
// each other; yielding after a run of empty polls keeps latency low when cores are free.
constexpr int kSpinsBeforeYield = 256;
constexpr int kSpinsBeforeSleep = 4096;
}  // namespace

void Transport::wait(Op& op, double timeout_s, const std::string& what) {
  std::vector<Op*> one{&op};
  wait_ptrs(one, timeout_s, what);
}

void Transport::wait_all(std::vector<Op>& ops, double timeout_s, const std::string& what) {
  std::vector<Op*> ptrs;
  for (auto& op : ops) ptrs.push_back(&op);
  wait_ptrs(ptrs, timeout_s, what);
}

void Transport::wait_ptrs(const std::vector<Op*>& ops, double timeout_s, const std::string& what) {
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeout_s));
  size_t next = 0;  // ops before `next` are done
  int spins = 0;
  for (;;) {
    while (next < ops.size() && ops[next]->done) ++next;
    if (next == ops.size()) return;
    progress();
    if (++spins % kSpinsBeforeYield == 0) {
      if (idle_sleep_us_ > 0 && spins >= kSpinsBeforeSleep)
        usleep(static_cast<useconds_t>(idle_sleep_us_));
      else
        sched_yield();
      if (Clock::now() > deadline)
        throw ProbeError("timeout after " + std::to_string(static_cast<int>(timeout_s)) + " s " +
                         what + " (peer dead or hung?)");
    }
  }
}

}  // namespace pdsim::pdcal

// Multi-GPU harness for the intra-node (NVLink / NVSwitch) benchmarks: peer access among the N
// visible GPUs (2..8), one stream and event pair per rank, a cross-GPU start barrier so that every
// rank's timed kernel starts within one NVLink round trip of the others, cross-GPU flags, an
// in-kernel grid barrier for cooperative (co-resident) grids, and a bounded spin that reports a
// hang instead of hanging the machine.
#pragma once

#include <string>
#include <vector>

#include "common.hpp"

namespace hw {

constexpr int kMaxRanks = 8;

// One pointer per rank, passed by value to kernels (every rank's buffer is addressable from every
// rank once peer access is on).
template <typename T>
struct PeerPtrs {
  T* p[kMaxRanks];
};

// Spin budget: ~2 s of globaltimer; a spin that runs out sets *err and gives up.
constexpr unsigned long long kSpinLimitNs = 2000000000ull;

__device__ __forceinline__ unsigned long long dev_global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned long long ld_acquire_sys(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release_sys(unsigned long long* p, unsigned long long v) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// Waits until *flag >> 32 == epoch (the high half carries the epoch, the low half a payload);
// returns the low half. On timeout sets *err = 1 and returns 0.
__device__ __forceinline__ unsigned wait_epoch(const unsigned long long* flag, unsigned epoch,
                                               int* err) {
  unsigned long long t0 = 0;
  for (unsigned spins = 0;; ++spins) {
    unsigned long long v = ld_acquire_sys(flag);
    if (static_cast<unsigned>(v >> 32) == epoch) return static_cast<unsigned>(v);
    if ((spins & 1023u) == 0) {
      unsigned long long now = dev_global_ns();
      if (t0 == 0) t0 = now;
      if (now - t0 > kSpinLimitNs || *reinterpret_cast<volatile int*>(err)) {
        atomicExch(err, 1);
        return 0;
      }
    }
  }
}

// Grid barrier for a cooperative launch: `counter` is zeroed before the launch; the b-th barrier
// of the launch (b = 1, 2, ...) waits for gridDim.x * b arrivals.
__device__ __forceinline__ void grid_barrier(unsigned* counter, unsigned b) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(counter, 1u);
    const unsigned target = gridDim.x * b;
    while (*reinterpret_cast<volatile unsigned*>(counter) < target) {
    }
    __threadfence();
  }
  __syncthreads();
}

// Peer set: N ranks with peer access enabled both ways, a stream and events per rank, and the
// start-barrier flags (one u64 per source rank on every rank).
struct Peers {
  int n = 0;
  int sms = 0;
  std::vector<cudaStream_t> st;
  std::vector<cudaEvent_t> e0, e1;
  PeerPtrs<unsigned long long> bar{};  // bar.p[r][src]
  std::vector<int*> err;               // device error flag per rank
  volatile unsigned* go = nullptr;     // host-mapped release flag, read by every rank's barrier
  unsigned epoch = 0;                  // last epoch handed out
  std::string skipped;                 // non-empty: not runnable here, why

  explicit Peers(int max_ranks = kMaxRanks);
  ~Peers();
  Peers(const Peers&) = delete;
  Peers& operator=(const Peers&) = delete;

  // A repetition's epoch: new, increasing, the same on every rank; the timed kernels also tag
  // their flags with it.
  unsigned begin() { return ++epoch; }
  // Enqueues rank r's start barrier for `epoch`: it waits for the host's go (release(epoch)),
  // which comes after every rank's work is enqueued, then for every other rank's barrier, so that
  // host launch order and launch cost do not skew the ranks' start times.
  void barrier(int r, unsigned epoch);
  void release(unsigned epoch);
  // Per repetition: pre(rank) enqueues untimed resets on st[rank] before the start barrier,
  // fn(rank, epoch) the timed work after it, between the events; returns the slowest rank's time
  // of each repetition in µs.
  template <typename Pre, typename F>
  std::vector<double> timed(int warmup, int reps, Pre&& pre, F&& fn);
  // Exits with a message if any rank's kernel reported a spin timeout.
  void check_errors(const char* what);
};

template <typename Pre, typename F>
std::vector<double> Peers::timed(int warmup, int reps, Pre&& pre, F&& fn) {
  std::vector<double> us;
  for (int it = 0; it < warmup + reps; ++it) {
    const unsigned ep = begin();
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      pre(r);
      barrier(r, ep);
      HW_CHECK(cudaEventRecord(e0[r], st[r]));
      fn(r, ep);
      HW_CHECK_LAUNCH();
      HW_CHECK(cudaEventRecord(e1[r], st[r]));
    }
    release(ep);
    double worst = 0;
    for (int r = 0; r < n; ++r) {
      HW_CHECK(cudaSetDevice(r));
      HW_CHECK(cudaEventSynchronize(e1[r]));
      float ms = 0;
      HW_CHECK(cudaEventElapsedTime(&ms, e0[r], e1[r]));
      worst = std::max(worst, 1000.0 * static_cast<double>(ms));
    }
    if (it >= warmup) us.push_back(worst);
  }
  check_errors("timed loop");
  return us;
}

// Launches `kernel` on every SM of rank r's GPU as a cooperative grid (all blocks co-resident,
// which the in-kernel grid barrier needs).
template <typename... Args>
void launch_coop(int blocks, int threads, cudaStream_t s, void (*kernel)(Args...), Args... args) {
  void* argv[] = {static_cast<void*>(&args)...};
  HW_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(blocks),
                                       dim3(threads), argv, 0, s));
}

}  // namespace hw

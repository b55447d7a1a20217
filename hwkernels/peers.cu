#include "peers.hpp"

#include <atomic>

namespace hw {
namespace {

// One thread: wait for the host's go, announce `epoch` to every rank, then wait until every rank
// has announced it.
__global__ void start_barrier_kernel(PeerPtrs<unsigned long long> bar, int n, int me,
                                     unsigned epoch, const volatile unsigned* go, int* err) {
  unsigned long long t0 = dev_global_ns();
  while (*go < epoch) {
    if (dev_global_ns() - t0 > kSpinLimitNs) {
      atomicExch(err, 1);
      return;
    }
  }
  const unsigned long long v = static_cast<unsigned long long>(epoch) << 32;
  for (int d = 0; d < n; ++d) st_release_sys(bar.p[d] + me, v);
  for (int s = 0; s < n; ++s) wait_epoch(bar.p[me] + s, epoch, err);
}

}  // namespace

Peers::Peers(int max_ranks) {
  HW_CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    skipped = "fewer than 2 GPUs visible (" + std::to_string(n) + ")";
    return;
  }
  n = std::min({n, max_ranks, kMaxRanks});
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      int can = 0;
      HW_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) {
        skipped = "peer access not available between GPU " + std::to_string(a) + " and " +
                  std::to_string(b);
        return;
      }
      HW_CHECK(cudaSetDevice(a));
      cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) HW_CHECK(e);
      (void)cudaGetLastError();
    }
  unsigned* go_h = nullptr;
  HW_CHECK(cudaHostAlloc(&go_h, sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable));
  *go_h = 0;
  go = go_h;
  cudaDeviceProp prop;
  HW_CHECK(cudaGetDeviceProperties(&prop, 0));
  sms = prop.multiProcessorCount;
  st.resize(n);
  e0.resize(n);
  e1.resize(n);
  err.resize(n);
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaStreamCreateWithFlags(&st[r], cudaStreamNonBlocking));
    HW_CHECK(cudaEventCreate(&e0[r]));
    HW_CHECK(cudaEventCreate(&e1[r]));
    HW_CHECK(cudaMalloc(&bar.p[r], sizeof(unsigned long long) * kMaxRanks));
    HW_CHECK(cudaMemset(bar.p[r], 0, sizeof(unsigned long long) * kMaxRanks));
    HW_CHECK(cudaMalloc(&err[r], sizeof(int)));
    HW_CHECK(cudaMemset(err[r], 0, sizeof(int)));
    HW_CHECK(cudaDeviceSynchronize());
  }
}

Peers::~Peers() {
  for (size_t r = 0; r < st.size(); ++r) {
    HW_CHECK(cudaSetDevice(static_cast<int>(r)));
    HW_CHECK(cudaDeviceSynchronize());
    HW_CHECK(cudaStreamDestroy(st[r]));
    HW_CHECK(cudaEventDestroy(e0[r]));
    HW_CHECK(cudaEventDestroy(e1[r]));
    HW_CHECK(cudaFree(bar.p[r]));
    HW_CHECK(cudaFree(err[r]));
  }
  if (go) HW_CHECK(cudaFreeHost(const_cast<unsigned*>(go)));
  HW_CHECK(cudaSetDevice(0));
}

void Peers::barrier(int r, unsigned e) {
  start_barrier_kernel<<<1, 1, 0, st[r]>>>(bar, n, r, e, go, err[r]);
  HW_CHECK_LAUNCH();
}

void Peers::release(unsigned e) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *go = e;
}

void Peers::check_errors(const char* what) {
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaStreamSynchronize(st[r]));
    int e = 0;
    HW_CHECK(cudaMemcpy(&e, err[r], sizeof e, cudaMemcpyDeviceToHost));
    if (e) {
      std::fprintf(stderr, "rank %d: a cross-GPU wait timed out (%s)\n", r, what);
      std::exit(4);
    }
  }
}

}  // namespace hw

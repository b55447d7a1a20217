// NCCL all-reduce bus bandwidth against message size among the N visible GPUs (one process,
// ncclCommInitAll, grouped calls), BF16 sum. Built only where CMake found nccl.h and libnccl
// (PDSIM_HAVE_NCCL); otherwise the benchmark reports that it was skipped and why.
// NVLink SHARP (NVLS, multicast) stays off: NCCL_NVLS_ENABLE=0 is forced before the
// communicators are made (a program that uses multicast can take the host's GPUs out of service).
#include <cstdlib>
#include <cstring>

#include "common.hpp"

#ifdef PDSIM_HAVE_NCCL
#include <cuda_bf16.h>
#include <nccl.h>
#endif

namespace hw {

#ifndef PDSIM_HAVE_NCCL
std::string bench_nccl(const Options&) {
  return jobj({{"skipped", jstr("built without NCCL: CMake found no nccl.h / libnccl (see "
                                "hwkernels/CMakeLists.txt for the places searched)")}});
}
#else
namespace {

#define NC_CHECK(call)                                                                   \
  do {                                                                                   \
    ncclResult_t r_ = (call);                                                            \
    if (r_ != ncclSuccess) {                                                             \
      std::fprintf(stderr, "NCCL error %s at %s:%d\n", ncclGetErrorString(r_), __FILE__, \
                   __LINE__);                                                            \
      std::exit(3);                                                                      \
    }                                                                                    \
  } while (0)

__global__ void fill_small_ints(__nv_bfloat16* x, size_t count, int rank) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    x[i] = __float2bfloat16_rn(static_cast<float>((i + rank) % 5));  // sums stay exact in BF16
}

}  // namespace

std::string bench_nccl(const Options& o) {
  int n = 0;
  HW_CHECK(cudaGetDeviceCount(&n));
  n = std::min(n, 8);
  if (n < 2) return jobj({{"skipped", jstr("fewer than 2 GPUs visible")}});
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  int ver = 0;
  NC_CHECK(ncclGetVersion(&ver));
  std::vector<int> devs(n);
  for (int r = 0; r < n; ++r) devs[r] = r;
  std::vector<ncclComm_t> comms(n);
  NC_CHECK(ncclCommInitAll(comms.data(), n, devs.data()));
  std::vector<cudaStream_t> st(n);
  std::vector<cudaEvent_t> e0(n), e1(n);
  const size_t max_bytes = o.quick ? (16ull << 20) : (1ull << 30);
  std::vector<__nv_bfloat16*> buf(n);
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaStreamCreateWithFlags(&st[r], cudaStreamNonBlocking));
    HW_CHECK(cudaEventCreate(&e0[r]));
    HW_CHECK(cudaEventCreate(&e1[r]));
    HW_CHECK(cudaMalloc(&buf[r], max_bytes));
  }
  auto allreduce = [&](size_t bytes) {
    NC_CHECK(ncclGroupStart());
    for (int r = 0; r < n; ++r)
      NC_CHECK(ncclAllReduce(buf[r], buf[r], bytes / 2, ncclBfloat16, ncclSum, comms[r], st[r]));
    NC_CHECK(ncclGroupEnd());
  };
  // Correctness: values (i + r) % 5, summed over ranks, exact in BF16 for n <= 8 (max 32).
  const size_t check_bytes = 1 << 20;
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    // clang-format 14 splits this launch's `>>>` into `> > >`.
    // clang-format off
    fill_small_ints<<<64, 256, 0, st[r]>>>(buf[r], check_bytes / 2, r);
    // clang-format on
    HW_CHECK_LAUNCH();
  }
  allreduce(check_bytes);
  long long bad = 0;
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaStreamSynchronize(st[r]));
    std::vector<unsigned short> h(check_bytes / 2);
    HW_CHECK(cudaMemcpy(h.data(), buf[r], check_bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < h.size(); ++i) {
      int want = 0;
      for (int s = 0; s < n; ++s) want += static_cast<int>((i + s) % 5);
      unsigned u = static_cast<unsigned>(h[i]) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      if (f != static_cast<float>(want)) ++bad;
    }
  }
  std::vector<std::string> rows;
  // Each repetition times a batch of back-to-back all-reduces (as nccl-tests does) so that the
  // host's launch cost and the ranks' launch skew stay out of the per-call time.
  for (size_t bytes = 4096; bytes <= max_bytes; bytes *= 4) {
    const int batch = bytes >= (64ull << 20) ? 4 : 20, reps = o.quick ? 5 : 25, warm = 2;
    std::vector<double> us;
    for (int it = 0; it < warm + reps; ++it) {
      for (int r = 0; r < n; ++r) {
        HW_CHECK(cudaSetDevice(r));
        HW_CHECK(cudaEventRecord(e0[r], st[r]));
      }
      for (int b = 0; b < batch; ++b) allreduce(bytes);
      for (int r = 0; r < n; ++r) {
        HW_CHECK(cudaSetDevice(r));
        HW_CHECK(cudaEventRecord(e1[r], st[r]));
      }
      double worst = 0;
      for (int r = 0; r < n; ++r) {
        HW_CHECK(cudaSetDevice(r));
        HW_CHECK(cudaEventSynchronize(e1[r]));
        float ms = 0;
        HW_CHECK(cudaEventElapsedTime(&ms, e0[r], e1[r]));
        worst = std::max(worst, 1000.0 * static_cast<double>(ms) / batch);
      }
      if (it >= warm) us.push_back(worst);
    }
    const Stats s = stats_of(us);
    const double bus = 2.0 * (n - 1) / n * static_cast<double>(bytes);
    rows.push_back(jobj({{"bytes", jnum(static_cast<double>(bytes))},
                         {"us_slowest_rank", jstats(s)},
                         {"algbw_GBps_median", jnum(static_cast<double>(bytes) / (s.median * 1e3))},
                         {"busbw_GBps_median", jnum(bus / (s.median * 1e3))}}));
  }
  for (int r = 0; r < n; ++r) {
    HW_CHECK(cudaSetDevice(r));
    HW_CHECK(cudaFree(buf[r]));
    HW_CHECK(cudaStreamDestroy(st[r]));
    HW_CHECK(cudaEventDestroy(e0[r]));
    HW_CHECK(cudaEventDestroy(e1[r]));
    NC_CHECK(ncclCommDestroy(comms[r]));
  }
  HW_CHECK(cudaSetDevice(0));
  return jobj(
      {{"ranks", jnum(n)},
       {"nccl_version", jnum(ver)},
       {"nvls", jstr("off (NCCL_NVLS_ENABLE=0)")},
       {"check", jstr(bad == 0 ? "exact" : "MISMATCH in " + std::to_string(bad) + " values")},
       {"rows", jarr(rows)},
       {"what",
        jstr(
            "ncclAllReduce BF16 sum, in place, all ranks from one process in a "
            "group; per call: slowest rank's event time over a batch of back-to-back calls / batch "
            "(20 calls below 64 MiB, 4 from 64 MiB); busbw = 2 (n-1)/n x bytes / time "
            "(nccl-tests convention)")}});
}
#endif

}  // namespace hw

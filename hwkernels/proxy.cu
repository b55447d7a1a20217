// GPU -> CPU -> GPU signalling through host-mapped memory (the CPU-proxy path that EFA needs):
// (1) round trip of one flag, (2) enqueue cost of 128-bit commands into a host-mapped FIFO that
// one CPU thread drains, with many producer warps at once.
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "common.hpp"

namespace hw {
namespace {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void rtt_kernel(volatile unsigned* d2h, volatile unsigned* h2d, int iters,
                           unsigned long long* gpu_ns) {
  for (int i = 1; i <= iters; ++i) {
    unsigned long long t0 = global_ns();
    *d2h = static_cast<unsigned>(i);
    __threadfence_system();
    while (*h2d != static_cast<unsigned>(i)) {
    }
    gpu_ns[i - 1] = global_ns() - t0;
  }
}

// Each warp's lane 0 is one producer: reserve a slot, wait for space, write one 16-byte command,
// fence so that the command is ordered after the data it describes (as a real proxy FIFO must).
__global__ void fifo_kernel(uint4* ring, const volatile unsigned long long* tail,
                            unsigned long long* head, int per_warp, unsigned qsize, bool fence,
                            unsigned* cycles_out, unsigned long long* span_out) {
  if ((threadIdx.x & 31) != 0) return;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned long long cached_tail = *tail;
  unsigned long long ns0 = global_ns();
  long long c_start = clock64();
  for (int j = 0; j < per_warp; ++j) {
    long long c0 = clock64();
    unsigned long long slot = atomicAdd(head, 1ull);
    while (slot - cached_tail >= qsize) cached_tail = *tail;
    unsigned seq = static_cast<unsigned>(slot + 1);
    uint4 cmd = make_uint4(seq, warp, static_cast<unsigned>(j), seq);
    volatile uint4* dst = ring + (slot % qsize);
    asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(dst), "r"(cmd.x),
                 "r"(cmd.y), "r"(cmd.z), "r"(cmd.w)
                 : "memory");
    if (fence) __threadfence_system();
    cycles_out[static_cast<size_t>(warp) * per_warp + j] = static_cast<unsigned>(clock64() - c0);
  }
  span_out[2 * warp] = static_cast<unsigned long long>(clock64() - c_start);
  span_out[2 * warp + 1] = global_ns() - ns0;
}

std::string round_trip(const Options& o) {
  const int iters = o.quick ? 3000 : 30000, warm = 1000;
  unsigned *d2h_h, *h2d_h, *d2h_d, *h2d_d;
  HW_CHECK(cudaHostAlloc(&d2h_h, 64, cudaHostAllocMapped));
  HW_CHECK(cudaHostAlloc(&h2d_h, 64, cudaHostAllocMapped));
  *d2h_h = 0;
  *h2d_h = 0;
  HW_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d2h_d), d2h_h, 0));
  HW_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&h2d_d), h2d_h, 0));
  unsigned long long* gpu_ns_d;
  HW_CHECK(cudaMalloc(&gpu_ns_d, sizeof(unsigned long long) * iters));
  std::vector<double> cpu_seen(iters + 1);
  std::thread proxy([&] {
    volatile unsigned* req = d2h_h;
    volatile unsigned* ack = h2d_h;
    for (int i = 1; i <= iters; ++i) {
      while (*req != static_cast<unsigned>(i)) {
      }
      cpu_seen[i] = std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count();
      std::atomic_thread_fence(std::memory_order_seq_cst);
      *ack = static_cast<unsigned>(i);
    }
  });
  rtt_kernel<<<1, 1>>>(d2h_d, h2d_d, iters, gpu_ns_d);
  HW_CHECK_LAUNCH();
  HW_CHECK(cudaDeviceSynchronize());
  proxy.join();
  std::vector<unsigned long long> gpu_ns(iters);
  HW_CHECK(cudaMemcpy(gpu_ns.data(), gpu_ns_d, sizeof(unsigned long long) * iters,
                      cudaMemcpyDeviceToHost));
  std::vector<double> gpu_us, cpu_us;
  for (int i = warm; i < iters; ++i) {
    gpu_us.push_back(static_cast<double>(gpu_ns[i]) * 1e-3);
    if (i + 1 < iters) cpu_us.push_back(cpu_seen[i + 2] - cpu_seen[i + 1]);
  }
  HW_CHECK(cudaFree(gpu_ns_d));
  HW_CHECK(cudaFreeHost(d2h_h));
  HW_CHECK(cudaFreeHost(h2d_h));
  return jobj({{"what", jstr("one GPU thread writes a flag to host-mapped memory and spins until a "
                             "CPU thread echoes it; CPU-side figure is the interval between "
                             "consecutive requests seen by the CPU (one full round trip)")},
               {"iterations", jnum(iters - warm)},
               {"warmup", jnum(warm)},
               {"rtt_us_cpu_clock", jstats(stats_of(cpu_us))},
               {"rtt_us_gpu_globaltimer", jstats(stats_of(gpu_us))}});
}

std::string fifo_config(int warps, int per_warp, bool fence, double sm_clock_ghz_nominal) {
  const unsigned qsize = 2048;  // UCCL-EP's queue size (calibration-inputs.md)
  const long long total = static_cast<long long>(warps) * per_warp;
  uint4* ring_h;
  unsigned long long* tail_h;
  HW_CHECK(cudaHostAlloc(&ring_h, sizeof(uint4) * qsize, cudaHostAllocMapped));
  HW_CHECK(cudaHostAlloc(&tail_h, 64, cudaHostAllocMapped));
  std::memset(ring_h, 0, sizeof(uint4) * qsize);
  *tail_h = 0;
  uint4* ring_d;
  unsigned long long* tail_d;
  HW_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&ring_d), ring_h, 0));
  HW_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&tail_d), tail_h, 0));
  unsigned long long *head_d, *span_d;
  unsigned* cyc_d;
  HW_CHECK(cudaMalloc(&head_d, sizeof(unsigned long long)));
  HW_CHECK(cudaMemset(head_d, 0, sizeof(unsigned long long)));
  HW_CHECK(cudaMalloc(&cyc_d, sizeof(unsigned) * total));
  HW_CHECK(cudaMalloc(&span_d, sizeof(unsigned long long) * 2 * warps));
  std::atomic<long long> bad{0};
  std::thread consumer([&] {
    volatile uint4* ring = ring_h;
    volatile unsigned long long* tail = tail_h;
    for (long long s = 0; s < total; ++s) {
      const unsigned seq = static_cast<unsigned>(s + 1);
      volatile uint4* e = ring + (s % qsize);
      while (e->x != seq || e->w != seq) {
      }
      if (e->y >= static_cast<unsigned>(warps) || e->z >= static_cast<unsigned>(per_warp)) ++bad;
      if ((s & 7) == 7 || s + 1 == total) *tail = static_cast<unsigned long long>(s + 1);
    }
  });
  const int threads = warps >= 4 ? 128 : 32 * warps;
  const int blocks = warps >= 4 ? warps / 4 : 1;
  cudaEvent_t e0, e1;
  HW_CHECK(cudaEventCreate(&e0));
  HW_CHECK(cudaEventCreate(&e1));
  HW_CHECK(cudaEventRecord(e0));
  fifo_kernel<<<blocks, threads>>>(ring_d, tail_d, head_d, per_warp, qsize, fence, cyc_d, span_d);
  HW_CHECK_LAUNCH();
  HW_CHECK(cudaEventRecord(e1));
  HW_CHECK(cudaEventSynchronize(e1));
  consumer.join();
  float ms = 0;
  HW_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::vector<unsigned> cyc(total);
  std::vector<unsigned long long> span(2 * warps);
  HW_CHECK(cudaMemcpy(cyc.data(), cyc_d, sizeof(unsigned) * total, cudaMemcpyDeviceToHost));
  HW_CHECK(cudaMemcpy(span.data(), span_d, sizeof(unsigned long long) * 2 * warps,
                      cudaMemcpyDeviceToHost));
  // Cycles to time: the clock each warp actually ran at (its cycle span over its globaltimer span).
  double cyc_sum = 0, ns_sum = 0;
  for (int w = 0; w < warps; ++w) {
    cyc_sum += static_cast<double>(span[2 * w]);
    ns_sum += static_cast<double>(span[2 * w + 1]);
  }
  const double ghz = ns_sum > 0 ? cyc_sum / ns_sum : sm_clock_ghz_nominal;
  std::vector<double> ns;
  const int warm = per_warp / 10;
  for (int w = 0; w < warps; ++w)
    for (int j = warm; j < per_warp; ++j)
      ns.push_back(static_cast<double>(cyc[static_cast<size_t>(w) * per_warp + j]) / ghz);
  HW_CHECK(cudaFree(head_d));
  HW_CHECK(cudaFree(cyc_d));
  HW_CHECK(cudaFree(span_d));
  HW_CHECK(cudaFreeHost(ring_h));
  HW_CHECK(cudaFreeHost(tail_h));
  HW_CHECK(cudaEventDestroy(e0));
  HW_CHECK(cudaEventDestroy(e1));
  const double mops = static_cast<double>(total) / (static_cast<double>(ms) * 1e3);
  return jobj({{"producer_warps", jnum(warps)},
               {"threadfence_system_per_command", jstr(fence ? "yes" : "no")},
               {"commands_per_warp", jnum(per_warp)},
               {"warmup_commands_per_warp", jnum(warm)},
               {"queue_slots", jnum(qsize)},
               {"commands_ok", jstr(bad.load() == 0 ? "all commands seen in order, fields valid"
                                                    : "CORRUPT COMMANDS SEEN")},
               {"sm_clock_ghz_measured", jnum(ghz)},
               {"enqueue_ns", jstats(stats_of(ns))},
               {"throughput_Mops", jnum(mops)}});
}

}  // namespace

std::string bench_proxy(const Options& o) {
  cudaDeviceProp prop;
  HW_CHECK(cudaGetDeviceProperties(&prop, o.device));
  int clk_khz = 0;
  HW_CHECK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, o.device));
  const double ghz = clk_khz * 1e-6;
  std::vector<std::string> fifo;
  const int per_warp = o.quick ? 500 : 4000;
  for (int warps : {1, 8, 32, 132, 528}) fifo.push_back(fifo_config(warps, per_warp, true, ghz));
  // Without the system fence: what the 16-byte store and slot reservation alone cost.
  for (int warps : {1, 132}) fifo.push_back(fifo_config(warps, per_warp, false, ghz));
  return jobj(
      {{"round_trip", round_trip(o)},
       {"fifo", jarr(fifo)},
       {"fifo_what", jstr("lane 0 of each producer warp: atomicAdd a slot, wait for "
                          "space, one 16-byte st.volatile to cudaHostAllocMapped ring, "
                          "__threadfence_system (unless noted); one CPU thread drains in order and "
                          "publishes the tail every 8 commands")}});
}

}  // namespace hw

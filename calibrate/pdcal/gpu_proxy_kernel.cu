#include <cuda_runtime.h>

#include <stdexcept>

#include "calibrate/pdcal/gpu_proxy_kernel.hpp"

namespace pdsim::pdcal::gpu {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void round_trips(Command* ring, unsigned slots, const volatile unsigned long long* ack,
                            const volatile unsigned* abort_flag, int iters, unsigned first_seq,
                            unsigned bytes, unsigned long long* g0, unsigned long long* g1) {
  for (int i = 0; i < iters; ++i) {
    const unsigned seq = first_seq + static_cast<unsigned>(i);
    const unsigned long long t0 = global_ns();
    volatile Command* dst = ring + (seq % slots);
    asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(dst), "r"(seq), "r"(bytes),
                 "r"(static_cast<unsigned>(i)), "r"(seq)
                 : "memory");
    __threadfence_system();
    while (*ack != seq) {
      if (*abort_flag != 0) return;
    }
    g1[i] = global_ns();
    g0[i] = t0;
  }
}

}  // namespace

int device_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

ProxyGpu::ProxyGpu(int device, unsigned slots) : device_(device), slots_(slots) {
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  name_ = p.name;
  const size_t bytes = sizeof(Command) * slots + 128;
  check(cudaHostAlloc(&host_block_, bytes, cudaHostAllocMapped), "cudaHostAlloc");
  auto* base = static_cast<char*>(host_block_);
  for (size_t i = 0; i < bytes; ++i) base[i] = 0;
  ring_ = reinterpret_cast<volatile Command*>(base);
  ack_ = reinterpret_cast<volatile uint64_t*>(base + sizeof(Command) * slots);
  abort_ = reinterpret_cast<volatile uint32_t*>(base + sizeof(Command) * slots + 64);
  check(cudaHostGetDevicePointer(&dev_block_, host_block_, 0), "cudaHostGetDevicePointer");
}

ProxyGpu::~ProxyGpu() {
  if (g_) cudaFree(g_);
  if (host_block_) cudaFreeHost(host_block_);
}

void ProxyGpu::launch(int iters, uint32_t first_seq, uint32_t bytes) {
  if (iters > capacity_) {
    if (g_) check(cudaFree(g_), "cudaFree");
    check(cudaMalloc(&g_, sizeof(uint64_t) * 2 * static_cast<size_t>(iters)), "cudaMalloc");
    capacity_ = iters;
  }
  iters_ = iters;
  auto* base = static_cast<char*>(dev_block_);
  auto* ring = reinterpret_cast<Command*>(base);
  auto* ack = reinterpret_cast<const volatile unsigned long long*>(base + sizeof(Command) * slots_);
  auto* abort_flag =
      reinterpret_cast<const volatile unsigned*>(base + sizeof(Command) * slots_ + 64);
  auto* g0 = reinterpret_cast<unsigned long long*>(g_);
  round_trips<<<1, 1>>>(ring, slots_, ack, abort_flag, iters, first_seq, bytes, g0, g0 + iters);
  check(cudaGetLastError(), "kernel launch");
}

void ProxyGpu::finish(std::vector<uint64_t>& g0, std::vector<uint64_t>& g1) {
  check(cudaDeviceSynchronize(), "kernel");
  g0.resize(static_cast<size_t>(iters_));
  g1.resize(static_cast<size_t>(iters_));
  check(cudaMemcpy(g0.data(), g_, sizeof(uint64_t) * iters_, cudaMemcpyDeviceToHost), "copy g0");
  check(cudaMemcpy(g1.data(), g_ + iters_, sizeof(uint64_t) * iters_, cudaMemcpyDeviceToHost),
        "copy g1");
}

}  // namespace pdsim::pdcal::gpu

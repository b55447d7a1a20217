// HBM bandwidth: a read-only stream (sum of 16-byte loads) over sizes from 256 KiB to 4 GiB, and
// a large device-to-device copy. Each launch reads a fresh region of an 8 GiB pool so that sizes
// below the 60 MB L2 still come from HBM.
#include "common.hpp"

namespace hw {
namespace {

__global__ void fill_kernel(unsigned* p, size_t words) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = static_cast<unsigned>(i * 2654435761u) ^ 0x5bd1e995u;
}

__global__ void read_kernel(const uint4* __restrict__ p, size_t n16, unsigned* sum_out) {
  unsigned acc = 0;
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 a = __ldcs(p + i), b = __ldcs(p + i + stride), c = __ldcs(p + i + 2 * stride),
          d = __ldcs(p + i + 3 * stride);
    acc += a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y + d.z +
           d.w;
  }
  for (; i < n16; i += stride) {
    uint4 a = __ldcs(p + i);
    acc += a.x + a.y + a.z + a.w;
  }
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum_out, acc);
}

__global__ void copy_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, size_t n16) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  for (; i + stride < n16; i += 2 * stride) {
    uint4 a = __ldcs(src + i), b = __ldcs(src + i + stride);
    __stcs(dst + i, a);
    __stcs(dst + i + stride, b);
  }
  for (; i < n16; i += stride) __stcs(dst + i, __ldcs(src + i));
}

int grid_for(size_t n16, int sms) {
  const size_t want = (n16 + 256 * 4 - 1) / (256 * 4);
  return static_cast<int>(
      std::max<size_t>(1, std::min<size_t>(want, static_cast<size_t>(sms) * 8)));
}

}  // namespace

std::string bench_hbm(const Options& o) {
  cudaDeviceProp prop;
  HW_CHECK(cudaGetDeviceProperties(&prop, o.device));
  const int sms = prop.multiProcessorCount;
  const size_t pool_bytes = (o.quick ? 1ull : 8ull) << 30;
  unsigned* pool;
  unsigned* sum_d;
  HW_CHECK(cudaMalloc(&pool, pool_bytes));
  HW_CHECK(cudaMalloc(&sum_d, sizeof(unsigned)));
  fill_kernel<<<sms * 8, 256>>>(pool, pool_bytes / 4);
  HW_CHECK_LAUNCH();
  HW_CHECK(cudaDeviceSynchronize());
  cudaStream_t s;
  HW_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int batches = o.quick ? 3 : 9;

  // Correctness: the read kernel's word sum over 64 MiB against the CPU's sum of the fill pattern.
  {
    const size_t words = (64ull << 20) / 4;
    HW_CHECK(cudaMemset(sum_d, 0, sizeof(unsigned)));
    read_kernel<<<grid_for(words / 4, sms), 256>>>(reinterpret_cast<const uint4*>(pool), words / 4,
                                                   sum_d);
    HW_CHECK_LAUNCH();
    unsigned got = 0, want = 0;
    HW_CHECK(cudaMemcpy(&got, sum_d, sizeof got, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < words; ++i) want += static_cast<unsigned>(i * 2654435761u) ^ 0x5bd1e995u;
    if (got != want) {
      std::fprintf(stderr, "hbm: read-kernel checksum mismatch %u != %u\n", got, want);
      std::exit(4);
    }
  }

  std::vector<std::string> rows;
  std::vector<size_t> sizes;
  for (size_t b = 256ull << 10; b <= (o.quick ? (256ull << 20) : (4ull << 30)); b *= 4)
    sizes.push_back(b);
  for (size_t bytes : sizes) {
    const size_t n16 = bytes / 16;
    const size_t slots = pool_bytes / bytes;
    // Up to 2 GiB per graph (>= 4x L2 even for the smallest size), so replays re-read from HBM.
    const int per_batch =
        static_cast<int>(std::max<size_t>(1, std::min<size_t>(1024, (2ull << 30) / bytes)));
    const int grid = grid_for(n16, sms);
    auto us = time_graph_us(s, 2, batches, per_batch, [&](int call) {
      const uint4* src = reinterpret_cast<const uint4*>(pool) + (call % slots) * n16;
      read_kernel<<<grid, 256, 0, s>>>(src, n16, sum_d);
    });
    Stats st = stats_of(us);
    rows.push_back(jobj({{"bytes", jnum(static_cast<double>(bytes))},
                         {"us", jstats(st)},
                         {"GBps_median", jnum(static_cast<double>(bytes) / (st.median * 1e3))},
                         {"launches_per_batch", jnum(per_batch)}}));
  }

  // Large copy: 2 GiB read + 2 GiB written per launch (bytes counted both ways).
  const size_t copy_bytes = (o.quick ? 256ull : 2048ull) << 20;
  const uint4* src = reinterpret_cast<const uint4*>(pool);
  uint4* dst = reinterpret_cast<uint4*>(reinterpret_cast<char*>(pool) + pool_bytes / 2);
  auto copy_us = time_batches_us(s, 3, batches, 5, [&](int) {
    copy_kernel<<<sms * 8, 256, 0, s>>>(src, dst, copy_bytes / 16);
  });
  {
    std::vector<unsigned> a(copy_bytes / 4 / 64), b(copy_bytes / 4 / 64);
    HW_CHECK(cudaMemcpy(a.data(), pool, a.size() * 4, cudaMemcpyDeviceToHost));
    HW_CHECK(cudaMemcpy(b.data(), dst, b.size() * 4, cudaMemcpyDeviceToHost));
    if (a != b) {
      std::fprintf(stderr, "hbm: copy mismatch\n");
      std::exit(4);
    }
  }
  Stats cs = stats_of(copy_us);
  HW_CHECK(cudaStreamDestroy(s));
  HW_CHECK(cudaFree(pool));
  HW_CHECK(cudaFree(sum_d));
  return jobj({{"read_stream", jarr(rows)},
               {"read_what", jstr("16-byte streaming loads, word sum reduced per warp; each "
                                  "launch reads a fresh region of the pool; us is GPU time per "
                                  "kernel inside a replayed CUDA graph of launches_per_batch "
                                  "kernels (the graph's per-kernel gap included)")},
               {"pool_bytes", jnum(static_cast<double>(pool_bytes))},
               {"copy", jobj({{"bytes_each_way", jnum(static_cast<double>(copy_bytes))},
                              {"us", jstats(cs)},
                              {"GBps_read_plus_write_median",
                               jnum(2.0 * static_cast<double>(copy_bytes) / (cs.median * 1e3))}})},
               {"checks", jstr("read-kernel checksum equals CPU sum over 64 MiB; copy output "
                               "equals its source over the first 1/64")}});
}

}  // namespace hw

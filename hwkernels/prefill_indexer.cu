// Lightning-indexer logits of one prefill chunk (DSA, GLM-5.1 shape): q query tokens after c
// cached ones, logits[i][t] = kscale[t] * sum_h w[i][h] * relu(q[i][h] . k[t]) for t <= c + i,
// fp8 e4m3 q (32 heads x 128) and k (128 + fp32 scale), fp32 accumulation, fp32 row-major
// [q x (c+q)] out; masked entries (t > c + i) are not written. Grid (key tiles of 512, query
// chunks of 256): a CTA keeps its 512 keys and streams the query tokens (4 KB each) through shared
// memory, double-buffered with cp.async; a CTA whose keys no query of its chunk sees exits.
#include <cuda_fp8.h>

#include "prefill.hpp"

namespace hw::pf {
namespace {

constexpr int kStageQ = 8, kIdxSmem = 2 * kStageQ * (kQTok * 16 + kIH * 4);

// mma.sync variant, 8 warps of 64 keys held in registers as A fragments: lane (g, c4) holds key
// rows g, g+8 of each of its warp's four 16-key tiles as whole 16-byte pieces; the query fragments
// are stored in the matching permuted k order (see attention.cu's indexer_scan), one uint4 per
// lane and n-tile. On sm_90 ptxas lowers m16n8k32 e4m3 to fp8->fp16 unpacks + fp16 HMMA.
__global__ void __launch_bounds__(256, 2)
    indexer_mma_sync(const uint4* __restrict__ keys, const float* __restrict__ kscale, int c,
                     int nq, const uint4* __restrict__ qi, const float* __restrict__ w,
                     float* __restrict__ logits) {
  extern __shared__ uint4 smem[];
  uint4* sq = smem;                                                  // [2][kStageQ][kQTok]
  float* sw = reinterpret_cast<float*>(smem + 2 * kStageQ * kQTok);  // [2][kStageQ][kIH]
  const int ctx = c + nq, lane = threadIdx.x & 31, g = lane >> 2, c4 = lane & 3;
  const int k0 = blockIdx.x * kKeysPerCta, kw = k0 + (threadIdx.x >> 5) * 64;
  const int q_begin = max(static_cast<int>(blockIdx.y) * kChunkQ, k0 - c);
  const int q_end = min(nq, static_cast<int>(blockIdx.y + 1) * kChunkQ);
  if (q_begin >= q_end) return;
  uint4 ka[4][4];
  const uint4 z = make_uint4(0, 0, 0, 0);
#pragma unroll
  for (int h = 0; h < 4; ++h) {
    const size_t r0 = kw + 16 * h + g, r1 = r0 + 8;
    ka[h][0] = r0 < static_cast<size_t>(ctx) ? __ldg(keys + r0 * 8 + c4) : z;
    ka[h][1] = r0 < static_cast<size_t>(ctx) ? __ldg(keys + r0 * 8 + 4 + c4) : z;
    ka[h][2] = r1 < static_cast<size_t>(ctx) ? __ldg(keys + r1 * 8 + c4) : z;
    ka[h][3] = r1 < static_cast<size_t>(ctx) ? __ldg(keys + r1 * 8 + 4 + c4) : z;
  }
  const int t0 = kw + 16 * c4 + g, t1 = t0 + 8;  // the two keys this lane writes
  const float ks0 = t0 < ctx ? kscale[t0] : 0.f, ks1 = t1 < ctx ? kscale[t1] : 0.f;
  auto load = [&](int buf, int qs) {
    const int n = min(kStageQ, q_end - qs);
    uint4* dq = sq + buf * kStageQ * kQTok;
    for (int e = threadIdx.x; e < n * kQTok; e += blockDim.x) {
      const int t = e >> 8, piece = e & 255, hh = piece >> 3, p = piece & 7;
      cp_async16(dq + t * kQTok + ((hh >> 3) * 2 + (p >> 2)) * 32 + (hh & 7) * 4 + (p & 3),
                 qi + static_cast<size_t>(qs + t) * kQTok + piece, 16);
    }
    for (int e = threadIdx.x; e < n * kIH / 4; e += blockDim.x)
      cp_async16(sw + buf * kStageQ * kIH + 4 * e, w + static_cast<size_t>(qs) * kIH + 4 * e, 16);
  };
  const int nst = (q_end - q_begin + kStageQ - 1) / kStageQ;
  load(0, q_begin);
  cp_commit();
  for (int st = 0; st < nst; ++st) {
    if (st + 1 < nst) load((st + 1) & 1, q_begin + (st + 1) * kStageQ);
    cp_commit();
    cp_wait<1>();
    __syncthreads();
    const uint4* cq = sq + (st & 1) * kStageQ * kQTok;
    const float* cw = sw + (st & 1) * kStageQ * kIH;
    const int qs = q_begin + st * kStageQ, n = min(kStageQ, q_end - qs);
#pragma unroll 1
    for (int t = 0; t < n; ++t) {
      const int lim = c + qs + t;  // last visible key
      if (kw > lim) continue;      // the warp's 64 keys are all masked for this query
      float s0[4] = {0.f, 0.f, 0.f, 0.f}, s1[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll 1
      for (int nt = 0; nt < 4; ++nt) {  // rolled: 4 accumulator chains live, not 16
        const uint4 f0 = cq[t * kQTok + nt * 64 + lane], f1 = cq[t * kQTok + nt * 64 + 32 + lane];
        const float2 wv = *reinterpret_cast<const float2*>(cw + t * kIH + nt * 8 + 2 * c4);
#pragma unroll
        for (int h = 0; h < 4; ++h) {
          float acc[4] = {0.f, 0.f, 0.f, 0.f};
          mma_e4m3(acc, ka[h][0].x, ka[h][2].x, ka[h][1].x, ka[h][3].x, f0.x, f1.x);
          mma_e4m3(acc, ka[h][0].y, ka[h][2].y, ka[h][1].y, ka[h][3].y, f0.y, f1.y);
          mma_e4m3(acc, ka[h][0].z, ka[h][2].z, ka[h][1].z, ka[h][3].z, f0.z, f1.z);
          mma_e4m3(acc, ka[h][0].w, ka[h][2].w, ka[h][1].w, ka[h][3].w, f0.w, f1.w);
          s0[h] += wv.x * fmaxf(acc[0], 0.f) + wv.y * fmaxf(acc[1], 0.f);
          s1[h] += wv.x * fmaxf(acc[2], 0.f) + wv.y * fmaxf(acc[3], 0.f);
        }
      }
      // Reduce-scatter over the 4 lanes of a row group: lane c4 ends with tile h = c4.
      const bool hi = c4 & 2, lo = c4 & 1;
      float a0 = (hi ? s0[2] : s0[0]) + __shfl_xor_sync(~0u, hi ? s0[0] : s0[2], 2);
      float a1 = (hi ? s0[3] : s0[1]) + __shfl_xor_sync(~0u, hi ? s0[1] : s0[3], 2);
      float b0 = (hi ? s1[2] : s1[0]) + __shfl_xor_sync(~0u, hi ? s1[0] : s1[2], 2);
      float b1 = (hi ? s1[3] : s1[1]) + __shfl_xor_sync(~0u, hi ? s1[1] : s1[3], 2);
      const float v0 = (lo ? a1 : a0) + __shfl_xor_sync(~0u, lo ? a0 : a1, 1);
      const float v1 = (lo ? b1 : b0) + __shfl_xor_sync(~0u, lo ? b0 : b1, 1);
      float* row = logits + static_cast<size_t>(qs + t) * ctx;
      if (t0 <= lim) row[t0] = v0 * ks0;
      if (t1 <= lim) row[t1] = v1 * ks1;
    }
    __syncthreads();
  }
}

// Variant on Hopper's native FP8 path (mma.sync e4m3 is emulated on sm_90 through fp16): wgmma
// m64n128k32 e4m3 with both operands in shared memory, K-major, 128-byte swizzle (16-byte chunk j
// of a 128-byte row r at j ^ (r & 7)). Two warpgroups per CTA, each scoring 4 tiles of 64 keys
// (M) against a stage of 4 query tokens x 32 heads (N = 128); same epilogue as above.
constexpr int kWgStageQ = 4, kWgSmem = 1024 + kKeysPerCta * 128 + 2 * kWgStageQ * kIH * (128 + 4);

__device__ __forceinline__ unsigned long long gdesc(unsigned addr) {  // LBO unused, SBO 1024
  return ((addr & 0x3FFFFu) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}
#define HW_F8(i)                                                                              \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
__device__ __forceinline__ void wgmma_e4m3(float (&d)[64], unsigned long long a,
                                           unsigned long long b, int acc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, "
      "%9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, "
      "%27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, "
      "%45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, "
      "%63}, %64, %65, p, 1, 1;\n}\n"
      : HW_F8(0), HW_F8(8), HW_F8(16), HW_F8(24), HW_F8(32), HW_F8(40), HW_F8(48), HW_F8(56)
      : "l"(a), "l"(b), "r"(acc));
}
#undef HW_F8

template <int N>
__device__ __forceinline__ void wg_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void pin(float (&d)[64]) {  // keep accumulator reads after the wait
#pragma unroll
  for (int e = 0; e < 64; ++e) asm volatile("" : "+f"(d[e])::"memory");
}

// Per key tile: issue, wait, epilogue; the 2 CTAs (4 warpgroups) of an SM overlap one another's
// epilogues with their wgmmas. (Two accumulator sets per warpgroup, the next tile's wgmma under
// this tile's epilogue at 1 CTA per SM, measured 8-15 % slower in development.)
__global__ void __launch_bounds__(256, 2)
    indexer_wgmma(const uint4* __restrict__ keys, const float* __restrict__ kscale, int c, int nq,
                  const uint4* __restrict__ qi, const float* __restrict__ w,
                  float* __restrict__ logits) {
  extern __shared__ uint4 smem[];
  const unsigned raw = saddr(smem), base = (raw + 1023u) & ~1023u;
  uint4* sk = smem + (base - raw) / 16;                                // [512 keys][8 chunks]
  uint4* sq = sk + kKeysPerCta * 8;                                    // [2][128 rows][8 chunks]
  float* sw = reinterpret_cast<float*>(sq + 2 * kWgStageQ * kIH * 8);  // [2][4][32]
  const int ctx = c + nq, tid = threadIdx.x, wg = tid >> 7, wq = (tid >> 5) & 3;
  const int lane = tid & 31, g = lane >> 2, c4 = lane & 3;
  const int k0 = blockIdx.x * kKeysPerCta;
  const int q_begin = max(static_cast<int>(blockIdx.y) * kChunkQ, k0 - c);
  const int q_end = min(nq, static_cast<int>(blockIdx.y + 1) * kChunkQ);
  if (q_begin >= q_end) return;
  for (int e = tid; e < kKeysPerCta * 8; e += blockDim.x) {
    const int r = e >> 3, j = e & 7, t = k0 + r;
    cp_async16(sk + r * 8 + (j ^ (r & 7)), keys + static_cast<size_t>(t < ctx ? t : 0) * 8 + j,
               t < ctx ? 16 : 0);
  }
  auto load = [&](int buf, int qs) {
    const int n = min(kWgStageQ, q_end - qs);
    for (int e = tid; e < n * kIH * 8; e += blockDim.x) {
      const int r = e >> 3, j = e & 7;
      cp_async16(sq + (buf * kWgStageQ * kIH + r) * 8 + (j ^ (r & 7)),
                 qi + (static_cast<size_t>(qs) * kIH + r) * 8 + j, 16);
    }
    for (int e = tid; e < n * kIH / 4; e += blockDim.x)
      cp_async16(sw + buf * kWgStageQ * kIH + 4 * e, w + static_cast<size_t>(qs) * kIH + 4 * e, 16);
  };
  const int nst = (q_end - q_begin + kWgStageQ - 1) / kWgStageQ;
  load(0, q_begin);
  cp_commit();
  for (int st = 0; st < nst; ++st) {
    if (st + 1 < nst) load((st + 1) & 1, q_begin + (st + 1) * kWgStageQ);
    cp_commit();
    cp_wait<1>();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const int qs = q_begin + st * kWgStageQ, n = min(kWgStageQ, q_end - qs);
    const float* cw = sw + (st & 1) * kWgStageQ * kIH;
    const unsigned qa = saddr(sq + (st & 1) * kWgStageQ * kIH * 8);
    // Key tiles of this warpgroup that some query of the stage sees (warpgroup-uniform).
    const int kw0 = k0 + wg * 256, last = min(c + qs + n - 1, ctx - 1);
    const int nmt = last < kw0 ? 0 : min(4, (last - kw0) / 64 + 1);
    auto issue = [&](float(&d)[64], int mt) {
      const unsigned ka = saddr(sk + (wg * 256 + mt * 64) * 8);
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) wgmma_e4m3(d, gdesc(ka + 32 * kk), gdesc(qa + 32 * kk), kk);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    };
    // d[4j + e]: key row 16wq + g (+8 for e >= 2), column 8j + 2c4 + (e & 1) = query j / 4,
    // head 8 (j % 4) + 2c4 + (e & 1).
    auto epilogue = [&](float(&d)[64], int mt) {
      float lo[4], hi4[4];
#pragma unroll
      for (int qq = 0; qq < 4; ++qq) {
        lo[qq] = hi4[qq] = 0.f;
#pragma unroll
        for (int jj = 0; jj < 4; ++jj) {
          const int j = 4 * qq + jj;
          const float2 wv = *reinterpret_cast<const float2*>(cw + qq * kIH + jj * 8 + 2 * c4);
          lo[qq] += wv.x * fmaxf(d[4 * j], 0.f) + wv.y * fmaxf(d[4 * j + 1], 0.f);
          hi4[qq] += wv.x * fmaxf(d[4 * j + 2], 0.f) + wv.y * fmaxf(d[4 * j + 3], 0.f);
        }
      }
      const bool hi = c4 & 2, lo1 = c4 & 1;  // reduce-scatter: lane c4 ends with query c4
      float a0 = (hi ? lo[2] : lo[0]) + __shfl_xor_sync(~0u, hi ? lo[0] : lo[2], 2);
      float a1 = (hi ? lo[3] : lo[1]) + __shfl_xor_sync(~0u, hi ? lo[1] : lo[3], 2);
      float b0 = (hi ? hi4[2] : hi4[0]) + __shfl_xor_sync(~0u, hi ? hi4[0] : hi4[2], 2);
      float b1 = (hi ? hi4[3] : hi4[1]) + __shfl_xor_sync(~0u, hi ? hi4[1] : hi4[3], 2);
      const float v0 = (lo1 ? a1 : a0) + __shfl_xor_sync(~0u, lo1 ? a0 : a1, 1);
      const float v1 = (lo1 ? b1 : b0) + __shfl_xor_sync(~0u, lo1 ? b0 : b1, 1);
      const int i = qs + c4, t0 = kw0 + mt * 64 + wq * 16 + g, t1 = t0 + 8;
      if (c4 < n) {
        float* row = logits + static_cast<size_t>(i) * ctx;
        if (t0 <= c + i) row[t0] = v0 * __ldg(kscale + t0);
        if (t1 <= c + i) row[t1] = v1 * __ldg(kscale + t1);
      }
    };
    for (int mt = 0; mt < nmt; ++mt) {
      float d[64];
      issue(d, mt);
      wg_wait<0>();
      pin(d);
      epilogue(d, mt);
    }
    __syncthreads();
  }
}

}  // namespace

const char* indexer_variant(int v) {
  return v == 0 ? "mma.sync.m16n8k32.e4m3 (emulated on sm_90: F2FP unpack to fp16 + HMMA.16816)"
                : "wgmma.m64n128k32.e4m3, both operands in shared memory, 2 CTAs/SM";
}

void indexer_prefill_init() {
  HW_CHECK(cudaFuncSetAttribute(indexer_mma_sync, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                kIdxSmem));
  HW_CHECK(
      cudaFuncSetAttribute(indexer_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, kWgSmem));
}

void indexer_prefill(int v, cudaStream_t s, const uint4* keys, const float* kscale, int c, int nq,
                     const uint4* qi, const float* w, float* logits) {
  const dim3 grid((c + nq + kKeysPerCta - 1) / kKeysPerCta, (nq + kChunkQ - 1) / kChunkQ);
  if (v == 0)
    indexer_mma_sync<<<grid, 256, kIdxSmem, s>>>(keys, kscale, c, nq, qi, w, logits);
  else
    indexer_wgmma<<<grid, 256, kWgSmem, s>>>(keys, kscale, c, nq, qi, w, logits);
}

}  // namespace hw::pf

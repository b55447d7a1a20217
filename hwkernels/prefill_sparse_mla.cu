// DSA sparse attention of one prefill chunk over the absorbed MLA latent (the NSA backend's
// prefill form, GLM-5.1 shape): query token i (0-based; c + i + 1 visible keys) attends to its
// min(c + i + 1, 2048) selected latent rows (576 bf16 = 512 latent + 64 rope), H heads per token:
// QK over 576 dims, online softmax, PV over the first 512, bf16 out. Each selected row is gathered
// once per query token and shared by all heads (the heads are the M dimension, as in FlashMLA's
// sparse prefill); bf16 mma.sync m16n8k16 with fp32 accumulators.
#include "prefill.hpp"

namespace hw::pf {
namespace {

// Sparse MLA over the latent, one CTA (8 warps) per query token, H = 16 * MT heads as M. Shared
// memory: Q [H][72 x 16 B] (16-byte chunk j of row r at j ^ (r & 7): conflict-free ldmatrix), the
// gathered KV block [2][64 rows], P bf16 [H][72], row-max partials, rescale factors. kTma = false:
// rows gathered with cp.async (16 B per thread), swizzled like Q; kTma = true: one bulk copy
// (cp.async.bulk, copy engine, mbarrier) per row into rows padded to 73 chunks (conflict-free
// too); the partials, factors and barriers then live in the rows' padding (smem is full at H = 64).
// QK: warp (wm, wn) scores MPW m-tiles x NPW n-tiles; PV: warp w owns latent dims [64w, 64w+64).
template <int MT, bool kTma>
struct Sparse {
  static constexpr int H = 16 * MT, MPW = MT >= 2 ? 2 : 1, WM = MT / MPW, WN = 8 / WM, NPW = 8 / WN;
  static constexpr int kRowS = kTma ? kRow + 1 : kRow;  // KV row stride in 16-byte chunks
  static constexpr int kSmem =
      H * kRow * 16 + 2 * kBN * kRowS * 16 + H * 144 + (kTma ? 0 : (WN * H + H) * 4);
};

__device__ __forceinline__ void mbar_init(unsigned bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_expect(unsigned bar, unsigned bytes) {
  asm volatile(
      "{\n.reg .b64 st;\nmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n}\n" ::"r"(bar),
      "r"(bytes)
      : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  unsigned ok = 0;
  do {
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(ok)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!ok);
}
__device__ __forceinline__ void bulk_g2s(unsigned dst, const void* src, unsigned bytes,
                                         unsigned bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(dst),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
}

template <int MT, bool kTma>
__global__ void __launch_bounds__(256, 1)
    sparse_mla(const uint4* __restrict__ q, const uint4* __restrict__ kv,
               const int* __restrict__ idx, int c, float scale_log2, uint4* __restrict__ out) {
  using S = Sparse<MT, kTma>;
  constexpr int H = S::H, MPW = S::MPW, WM = S::WM, WN = S::WN, NPW = S::NPW, RS = S::kRowS;
  extern __shared__ uint4 smem[];
  uint4* sQ = smem;
  uint4* sKV = sQ + H * kRow;
  __nv_bfloat16* sP = reinterpret_cast<__nv_bfloat16*>(sKV + 2 * kBN * RS);
  float* sLin = reinterpret_cast<float*>(sP + H * 72);
  // Row-max partials / row sums [WN][H] and rescale factors [H]; with kTma in the rows' padding
  // chunks of KV buffer 0 and 1 (mbarriers in buffer 1's rows 32, 33).
  auto red = [&](int k) -> float& {
    if constexpr (kTma) return reinterpret_cast<float*>(sKV + (k >> 2) * RS + kRow)[k & 3];
    return sLin[k];
  };
  auto corr_at = [&](int k) -> float& {
    if constexpr (kTma) return reinterpret_cast<float*>(sKV + (kBN + (k >> 2)) * RS + kRow)[k & 3];
    return sLin[WN * H + k];
  };
  const unsigned bar0 = saddr(sKV + (kBN + 32) * RS + kRow), bar1 = bar0 + RS * 16;
  const int i = blockIdx.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int g = lane >> 2, c4 = lane & 3, xr = lane & 7, wm = warp % WM, wn = warp / WM;
  const int n = min(c + i + 1, kTopK), nb = (n + kBN - 1) / kBN;
  const int* ix = idx + static_cast<size_t>(i) * kTopK;
  for (int e = tid; e < H * kRow; e += blockDim.x) {
    const int r = e / kRow, j = e % kRow;
    cp_async16(sQ + r * kRow + (j ^ (r & 7)), q + static_cast<size_t>(i) * H * kRow + e, 16);
  }
  auto gather = [&](int blk) {  // cp.async path
    uint4* dst = sKV + (blk & 1) * kBN * RS;
    for (int e = tid; e < kBN * kRow; e += blockDim.x) {
      const int r = e / kRow, j = e % kRow, slot = blk * kBN + r;
      const int t = slot < n ? __ldg(ix + slot) : 0;  // zero-fill past the selection
      cp_async16(dst + r * kRow + (j ^ (r & 7)), kv + static_cast<size_t>(t) * kRow + j,
                 slot < n ? 16 : 0);
    }
  };
  // Bulk path: warp 0 issues the 64 row copies of a block (rows lane, lane + 32; indices loaded
  // one block ahead); past the selection it copies row 0, which the -inf mask zeroes in P.
  auto index_of = [&](int blk, int r) {
    const int slot = blk * kBN + r;
    return slot < n ? __ldg(ix + slot) : 0;
  };
  auto bulk = [&](int blk, int t0, int t1) {
    const unsigned bar = (blk & 1) ? bar1 : bar0, dst = saddr(sKV + (blk & 1) * kBN * RS);
    if (lane == 0) mbar_expect(bar, kBN * kRow * 16);
    __syncwarp();
    bulk_g2s(dst + lane * RS * 16, kv + static_cast<size_t>(t0) * kRow, kRow * 16, bar);
    bulk_g2s(dst + (lane + 32) * RS * 16, kv + static_cast<size_t>(t1) * kRow, kRow * 16, bar);
  };
  int nx0 = 0, nx1 = 0;
  if constexpr (kTma) {
    if (tid == 0) {
      mbar_init(bar0);
      mbar_init(bar1);
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cp_commit();
    __syncthreads();
    if (warp == 0) {
      bulk(0, index_of(0, lane), index_of(0, lane + 32));
      nx0 = index_of(1, lane);
      nx1 = index_of(1, lane + 32);
    }
    cp_wait<0>();
    __syncthreads();
  } else {
    gather(0);
    cp_commit();
  }
  float m_run[MPW][2], l_part[MPW][2], acc[MT][8][4];
#pragma unroll
  for (int mp = 0; mp < MPW; ++mp) m_run[mp][0] = m_run[mp][1] = -INFINITY;
#pragma unroll
  for (int mp = 0; mp < MPW; ++mp) l_part[mp][0] = l_part[mp][1] = 0.f;
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int nt = 0; nt < 8; ++nt)
      acc[mt][nt][0] = acc[mt][nt][1] = acc[mt][nt][2] = acc[mt][nt][3] = 0.f;
  // Per-lane ldmatrix offsets (16-byte chunks) inside an 8-chunk group.
  int offA[4], offB[4];
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) {
    offA[kk] = (2 * kk + (lane >> 4)) ^ xr;
    offB[kk] = kTma ? 2 * kk + ((lane >> 3) & 1) : (2 * kk + ((lane >> 3) & 1)) ^ xr;
  }
  const unsigned qa = saddr(sQ), pa = saddr(sP);
  const int keyB = NPW == 2 ? wn * 16 + (lane >> 4) * 8 + xr : wn * 8 + xr;
  for (int blk = 0; blk < nb; ++blk) {
    if constexpr (kTma) {
      if (warp == 0 && blk + 1 < nb) {
        bulk(blk + 1, nx0, nx1);
        nx0 = index_of(blk + 2, lane);
        nx1 = index_of(blk + 2, lane + 32);
      }
      mbar_wait((blk & 1) ? bar1 : bar0, (blk >> 1) & 1);
    } else {
      if (blk + 1 < nb) gather(blk + 1);
      cp_commit();
      cp_wait<1>();
      __syncthreads();
    }
    const unsigned ka = saddr(sKV + (blk & 1) * kBN * RS);
    float s[MPW][NPW][4];
#pragma unroll
    for (int mp = 0; mp < MPW; ++mp)
#pragma unroll
      for (int np = 0; np < NPW; ++np)
        s[mp][np][0] = s[mp][np][1] = s[mp][np][2] = s[mp][np][3] = 0.f;
#pragma unroll 3
    for (int kg = 0; kg < kRow / 8; ++kg)
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        unsigned a[MPW][4], b[4];
#pragma unroll
        for (int mp = 0; mp < MPW; ++mp)
          ldsm4(a[mp], qa + (((wm * MPW + mp) * 16 + (lane & 15)) * kRow + kg * 8 + offA[kk]) * 16);
        if constexpr (NPW == 2)
          ldsm4(b, ka + (keyB * RS + kg * 8 + offB[kk]) * 16);
        else
          ldsm2(b[0], b[1], ka + (keyB * RS + kg * 8 + offB[kk]) * 16);
#pragma unroll
        for (int mp = 0; mp < MPW; ++mp)
#pragma unroll
          for (int np = 0; np < NPW; ++np) mma_bf16(s[mp][np], a[mp], b[2 * np], b[2 * np + 1]);
      }
    // Online softmax (base 2): row max over the CTA's key columns through shared memory.
    const int nv = n - blk * kBN;
#pragma unroll
    for (int mp = 0; mp < MPW; ++mp)
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        float mx = -INFINITY;
#pragma unroll
        for (int np = 0; np < NPW; ++np)
#pragma unroll
          for (int e = 2 * hf; e < 2 * hf + 2; ++e) {
            const int col = (wn * NPW + np) * 8 + 2 * c4 + (e & 1);
            s[mp][np][e] = col < nv ? s[mp][np][e] * scale_log2 : -INFINITY;
            mx = fmaxf(mx, s[mp][np][e]);
          }
        mx = fmaxf(mx, __shfl_xor_sync(~0u, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(~0u, mx, 2));
        if (c4 == 0) red(wn * H + (wm * MPW + mp) * 16 + g + 8 * hf) = mx;
      }
    __syncthreads();
#pragma unroll
    for (int mp = 0; mp < MPW; ++mp)
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        const int row = (wm * MPW + mp) * 16 + g + 8 * hf;
        float bm = -INFINITY;
#pragma unroll
        for (int w2 = 0; w2 < WN; ++w2) bm = fmaxf(bm, red(w2 * H + row));
        const float mn = fmaxf(m_run[mp][hf], bm), corr = exp2f(m_run[mp][hf] - mn);
        m_run[mp][hf] = mn;
        l_part[mp][hf] *= corr;
#pragma unroll
        for (int np = 0; np < NPW; ++np) {
          const float p0 = exp2f(s[mp][np][2 * hf] - mn), p1 = exp2f(s[mp][np][2 * hf + 1] - mn);
          l_part[mp][hf] += p0 + p1;
          *reinterpret_cast<__nv_bfloat162*>(sP + row * 72 + (wn * NPW + np) * 8 + 2 * c4) =
              __floats2bfloat162_rn(p0, p1);
        }
        if (wn == 0 && c4 == 0) corr_at(row) = corr;
      }
    __syncthreads();
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
      for (int hf = 0; hf < 2; ++hf) {
        const float corr = corr_at(mt * 16 + g + 8 * hf);
#pragma unroll
        for (int nt = 0; nt < 8; ++nt) {
          acc[mt][nt][2 * hf] *= corr;
          acc[mt][nt][2 * hf + 1] *= corr;
        }
      }
#pragma unroll
    for (int ks = 0; ks < kBN / 16; ++ks) {
      unsigned a[MT][4];
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
        ldsm4(a[mt], pa + ((mt * 16 + (lane & 15)) * 72 + ks * 16 + (lane >> 4) * 8) * 2);
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        unsigned b[4];
        const int ch = kTma ? 2 * p + (lane >> 4) : (2 * p + (lane >> 4)) ^ xr;
        ldsm4t(b, ka + ((ks * 16 + ((lane >> 3) & 1) * 8 + xr) * RS + warp * 8 + ch) * 16);
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
          mma_bf16(acc[mt][2 * p], a[mt], b[0], b[1]);
          mma_bf16(acc[mt][2 * p + 1], a[mt], b[2], b[3]);
        }
      }
    }
    __syncthreads();
  }
  // Row sums: partial per (lane, QK warp) -> shared; then normalise, stage bf16 rows (stride 520
  // elements, conflict-free) in the Q region and write 16-byte pieces.
#pragma unroll
  for (int mp = 0; mp < MPW; ++mp)
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      float l = l_part[mp][hf];
      l += __shfl_xor_sync(~0u, l, 1);
      l += __shfl_xor_sync(~0u, l, 2);
      if (c4 == 0) red(wn * H + (wm * MPW + mp) * 16 + g + 8 * hf) = l;
    }
  __syncthreads();
  __nv_bfloat16* sO = reinterpret_cast<__nv_bfloat16*>(sQ);
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int hf = 0; hf < 2; ++hf) {
      const int row = mt * 16 + g + 8 * hf;
      float l = 0.f;
#pragma unroll
      for (int w2 = 0; w2 < WN; ++w2) l += red(w2 * H + row);
      const float inv = 1.f / l;
#pragma unroll
      for (int nt = 0; nt < 8; ++nt)
        *reinterpret_cast<__nv_bfloat162*>(sO + row * 520 + warp * 64 + nt * 8 + 2 * c4) =
            __floats2bfloat162_rn(acc[mt][nt][2 * hf] * inv, acc[mt][nt][2 * hf + 1] * inv);
    }
  __syncthreads();
  for (int e = tid; e < H * kLat; e += blockDim.x)
    out[static_cast<size_t>(i) * H * kLat + e] =
        *reinterpret_cast<const uint4*>(sO + (e >> 6) * 520 + (e & 63) * 8);
}

template <int MT, bool kTma>
void init() {
  HW_CHECK(cudaFuncSetAttribute(sparse_mla<MT, kTma>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                Sparse<MT, kTma>::kSmem));
}

}  // namespace

const char* sparse_variant(int v) {
  return v == 0 ? "gather: cp.async 16 B per thread"
                : "gather: cp.async.bulk per row (copy engine, mbarrier)";
}

void sparse_mla_prefill_init() {
  init<4, false>();
  init<4, true>();
  init<1, false>();
  init<1, true>();
}

void sparse_mla_prefill(int heads, int v, cudaStream_t s, const uint4* q, const uint4* kv,
                        const int* idx, int c, int nq, float scale_log2, uint4* out) {
  if (heads == 64 && v == 0)
    sparse_mla<4, false><<<nq, 256, Sparse<4, false>::kSmem, s>>>(q, kv, idx, c, scale_log2, out);
  else if (heads == 64)
    sparse_mla<4, true><<<nq, 256, Sparse<4, true>::kSmem, s>>>(q, kv, idx, c, scale_log2, out);
  else if (v == 0)
    sparse_mla<1, false><<<nq, 256, Sparse<1, false>::kSmem, s>>>(q, kv, idx, c, scale_log2, out);
  else
    sparse_mla<1, true><<<nq, 256, Sparse<1, true>::kSmem, s>>>(q, kv, idx, c, scale_log2, out);
}

}  // namespace hw::pf

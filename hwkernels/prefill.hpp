// Prefill-attention proxies of a DSA model (GLM-5.1 shape), shared pieces: shapes, the top-K
// index pattern, PTX wrappers, and the launchers of the two kernel files (prefill_indexer.cu,
// prefill_sparse_mla.cu); prefill.cu is the benchmark that checks and times them.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "common.hpp"

namespace hw::pf {

constexpr int kIH = 32, kID = 128, kQTok = kIH * kID / 16;   // uint4 per indexer query token
constexpr int kKeysPerCta = 512, kChunkQ = 256;              // indexer CTA tile (keys x queries)
constexpr int kRow = 72, kLat = 64, kTopK = 2048, kBN = 64;  // latent row: 72 x 16 B (576 bf16)

// Selected rows of query token i: all c+i+1 visible keys when they are at most K, else K distinct
// pseudo-random ones (a stride coprime to n: 1000003 is prime and larger than any n here); -1 pads.
__host__ __device__ inline int topk_index(int i, int j, int c) {
  const int n = min(c + i + 1, kTopK);
  if (j >= n) return -1;
  if (c + i + 1 <= kTopK) return j;
  const unsigned long long nn = static_cast<unsigned long long>(c + i + 1);
  const unsigned long long off = (static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull) >> 40;
  return static_cast<int>((1000003ull * j + off) % nn);
}

__device__ __forceinline__ unsigned saddr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp_async16(void* dst, const void* src, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(saddr(dst)), "l"(src),
               "r"(bytes));
}
__device__ __forceinline__ void cp_commit() {
  asm volatile("cp.async.commit_group;");
}
template <int N>
__device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
}
__device__ __forceinline__ void ldsm4(unsigned (&r)[4], unsigned a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(a));
}
__device__ __forceinline__ void ldsm4t(unsigned (&r)[4], unsigned a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(a));
}
__device__ __forceinline__ void ldsm2(unsigned& r0, unsigned& r1, unsigned a) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
               : "=r"(r0), "=r"(r1)
               : "r"(a));
}
__device__ __forceinline__ void mma_bf16(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
// Launchers (stream-ordered, no synchronisation). Indexer variants: 0 = mma.sync e4m3, 1 = wgmma;
// sparse attention: heads 64 or 16, variant 0 = cp.async gather, 1 = bulk-copy gather.
constexpr int kIndexerVariants = 2, kSparseVariants = 2;
const char* indexer_variant(int v);
const char* sparse_variant(int v);
void indexer_prefill_init();
void indexer_prefill(int v, cudaStream_t s, const uint4* keys, const float* kscale, int c, int nq,
                     const uint4* qi, const float* w, float* logits);
void sparse_mla_prefill_init();
void sparse_mla_prefill(int heads, int v, cudaStream_t s, const uint4* q, const uint4* kv,
                        const int* idx, int c, int nq, float scale_log2, uint4* out);

}  // namespace hw::pf

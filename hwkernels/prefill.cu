// Benchmark of the prefill-attention proxies (prefill_indexer.cu, prefill_sparse_mla.cu) for one
// request of a DSA model (GLM-5.1 shape) whose 16384-token chunk follows c cached tokens (query
// token i, 0-based, sees keys t <= c + i): checks every variant against double-precision host
// references, then times each at c + q = 16K ... 128K. flops and bytes are counted exactly as
// models/attention_ops.cpp counts indexer.scan and mla.attention for the same shape.
#include <cuda_fp8.h>

#include <cstdlib>
#include <cstring>

#include "prefill.hpp"

namespace hw {
namespace {

using namespace pf;

constexpr double kFp8Peak = 1979e12, kBf16Peak = 989.5e12, kHbm = 4.8e12;  // datasheet
constexpr unsigned long long kSeedK = 201, kSeedKs = 203, kSeedQi = 205, kSeedW = 207,
                             kSeedKv = 209, kSeedQ = 211;

template <typename T, bool kScale>
__global__ void fill(T* p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = T(kScale ? hscale(i, seed) : hval(i, seed));
}

__global__ void gen_indices(int* idx, int nq, int c) {
  for (size_t e = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
       e < static_cast<size_t>(nq) * kTopK; e += static_cast<size_t>(gridDim.x) * blockDim.x)
    idx[e] = topk_index(static_cast<int>(e / kTopK), static_cast<int>(e % kTopK), c);
}

std::string us_json(std::vector<double> us) {
  Stats st = stats_of(us);
  std::sort(us.begin(), us.end());
  return jobj({{"median", jnum(st.median)},
               {"p10", jnum(quantile_sorted(us, 0.1))},
               {"p90", jnum(quantile_sorted(us, 0.9))},
               {"min", jnum(st.min)},
               {"max", jnum(st.max)},
               {"n", jnum(static_cast<double>(st.n))}});
}

std::string verdict(double max_rel, double l2, double tol, long long unwritten,
                    long long clobbered) {
  const bool ok = max_rel < tol && l2 < tol && unwritten == 0 && clobbered == 0;
  return (ok ? "pass max_rel_err=" : "FAIL max_rel_err=") + jnum(max_rel) + " rel_l2=" + jnum(l2) +
         " unwritten=" + jnum(static_cast<double>(unwritten)) +
         " masked_written=" + jnum(static_cast<double>(clobbered));
}

}  // namespace

std::string bench_prefill(const Options& o) {
  cudaStream_t s;
  HW_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int nq = o.quick ? 2048 : 16384, reps = o.quick ? 3 : 12;
  std::vector<int> cs =
      o.quick ? std::vector<int>{0, 2048, 6144} : std::vector<int>{0, 8192, 16384, 49152, 114688};
  const int max_ctx = cs.back() + nq;
  uint4 *keys, *qi, *kv, *qa, *out;
  float *kscale, *w, *logits;
  int* idx;
  HW_CHECK(cudaMalloc(&keys, static_cast<size_t>(max_ctx) * kID));
  HW_CHECK(cudaMalloc(&kscale, sizeof(float) * max_ctx));
  HW_CHECK(cudaMalloc(&qi, static_cast<size_t>(nq) * kQTok * 16));
  HW_CHECK(cudaMalloc(&w, sizeof(float) * nq * kIH));
  HW_CHECK(cudaMalloc(&logits, sizeof(float) * nq * static_cast<size_t>(max_ctx)));
  HW_CHECK(cudaMalloc(&kv, static_cast<size_t>(max_ctx) * kRow * 16));
  HW_CHECK(cudaMalloc(&qa, static_cast<size_t>(nq) * 64 * kRow * 16));
  HW_CHECK(cudaMalloc(&idx, sizeof(int) * nq * static_cast<size_t>(kTopK)));
  HW_CHECK(cudaMalloc(&out, static_cast<size_t>(nq) * 64 * kLat * 16));
  fill<__nv_fp8_e4m3, false><<<1024, 256, 0, s>>>(reinterpret_cast<__nv_fp8_e4m3*>(keys),
                                                  static_cast<size_t>(max_ctx) * kID, kSeedK);
  fill<float, true><<<256, 256, 0, s>>>(kscale, max_ctx, kSeedKs);
  fill<__nv_fp8_e4m3, false><<<1024, 256, 0, s>>>(reinterpret_cast<__nv_fp8_e4m3*>(qi),
                                                  static_cast<size_t>(nq) * kIH * kID, kSeedQi);
  fill<float, false><<<256, 256, 0, s>>>(w, static_cast<size_t>(nq) * kIH, kSeedW);
  fill<__nv_bfloat16, false><<<2048, 256, 0, s>>>(reinterpret_cast<__nv_bfloat16*>(kv),
                                                  static_cast<size_t>(max_ctx) * kRow * 8, kSeedKv);
  fill<__nv_bfloat16, false><<<2048, 256, 0, s>>>(reinterpret_cast<__nv_bfloat16*>(qa),
                                                  static_cast<size_t>(nq) * 64 * kRow * 8, kSeedQ);
  HW_CHECK_LAUNCH();
  indexer_prefill_init();
  sparse_mla_prefill_init();
  const float scale = 0.0625f, log2e = 1.4426950408889634f;  // 1/sqrt(192 + 64)
  auto run_idx = [&](int v, int c, int q) {
    indexer_prefill(v, s, keys, kscale, c, q, qi, w, logits);
  };
  auto run_mla = [&](int heads, int v, int c, int q, float sc) {
    sparse_mla_prefill(heads, v, s, qa, kv, idx, c, q, sc * log2e, out);
  };
  auto gen = [&](int c, int q) {
    gen_indices<<<1024, 256, 0, s>>>(idx, q, c);
    HW_CHECK_LAUNCH();
  };
  auto max_rel = [](const std::vector<double>& g, const std::vector<double>& r) {
    double num = 0, den = 0;
    for (size_t e = 0; e < g.size(); ++e) {
      num = std::max(num, std::fabs(g[e] - r[e]));
      den = std::max(den, std::fabs(r[e]));
    }
    return num / den;
  };

  // Checks on an odd shape (c = 1000 cached, q = 1500 new, 2500 keys; both short and clipped
  // selections) against double-precision host references on sampled query tokens; every valid
  // output must be written (outputs poisoned first) and masked logits left untouched.
  std::string idx_check[kIndexerVariants], mla_check[2][kSparseVariants];
  const int c = 1000, q = 1500, ctx = c + q;
  const std::vector<int> idx_rows_checked = {0, 1, 511, 512, 777, 1023, 1499};
  std::vector<double> r2;
  {
    std::vector<float> kh(static_cast<size_t>(ctx) * kID), qh(kIH * kID);
    for (size_t e = 0; e < kh.size(); ++e)
      kh[e] = static_cast<float>(__nv_fp8_e4m3(hval(e, kSeedK)));
    for (int i : idx_rows_checked) {
      for (int e = 0; e < kIH * kID; ++e)
        qh[e] = static_cast<float>(
            __nv_fp8_e4m3(hval(static_cast<unsigned long long>(i) * kIH * kID + e, kSeedQi)));
      for (int t = 0; t <= c + i; ++t) {
        double sum = 0;
        for (int h = 0; h < kIH; ++h) {
          double d = 0;
          for (int e = 0; e < kID; ++e)
            d += static_cast<double>(qh[h * kID + e]) * kh[static_cast<size_t>(t) * kID + e];
          sum += static_cast<double>(hval(static_cast<unsigned long long>(i) * kIH + h, kSeedW)) *
                 std::max(d, 0.0);
        }
        r2.push_back(sum * hscale(t, kSeedKs));
      }
    }
  }
  for (int v = 0; v < kIndexerVariants; ++v) {
    HW_CHECK(cudaMemsetAsync(logits, 0xFF, sizeof(float) * q * static_cast<size_t>(ctx), s));
    run_idx(v, c, q);
    HW_CHECK_LAUNCH();
    std::vector<float> got(static_cast<size_t>(q) * ctx);
    HW_CHECK(
        cudaMemcpyAsync(got.data(), logits, sizeof(float) * got.size(), cudaMemcpyDeviceToHost, s));
    HW_CHECK(cudaStreamSynchronize(s));
    std::vector<double> g2;
    long long unwritten = 0, clobbered = 0;
    for (int i : idx_rows_checked)
      for (int t = 0; t < ctx; ++t) {
        const float x = got[static_cast<size_t>(i) * ctx + t];
        unsigned bits;
        std::memcpy(&bits, &x, 4);
        if (t > c + i) {
          clobbered += bits != 0xFFFFFFFFu;
        } else {
          unwritten += !std::isfinite(x);
          g2.push_back(x);
        }
      }
    idx_check[v] = verdict(max_rel(g2, r2), rel_l2(g2, r2), 1e-3, unwritten, clobbered);
  }
  gen(c, q);
  const float csc = 0.3f;  // peakier softmax than the timed 1/16, to exercise the rescaling
  for (int hv = 0; hv < 2; ++hv) {
    const int heads = hv == 0 ? 64 : 16;
    const std::vector<int> toks = {0, 600, 1047, 1048, 1499};
    std::vector<double> r3;
    for (int i : toks) {
      const int n = std::min(c + i + 1, kTopK);
      std::vector<float> rows(static_cast<size_t>(n) * 576);
      for (int j = 0; j < n; ++j) {
        const unsigned long long t = static_cast<unsigned long long>(topk_index(i, j, c));
        for (int d = 0; d < 576; ++d)
          rows[static_cast<size_t>(j) * 576 + d] =
              __bfloat162float(__float2bfloat16_rn(hval(t * 576 + d, kSeedKv)));
      }
      for (int h = 0; h < heads; ++h) {
        std::vector<double> qh(576), sc(n), o(512, 0.0);
        for (int d = 0; d < 576; ++d)
          qh[d] = __bfloat162float(__float2bfloat16_rn(
              hval((static_cast<unsigned long long>(i) * heads + h) * 576 + d, kSeedQ)));
        double mx = -1e300, l = 0;
        for (int j = 0; j < n; ++j) {
          double dd = 0;
          for (int d = 0; d < 576; ++d) dd += qh[d] * rows[static_cast<size_t>(j) * 576 + d];
          sc[j] = dd * csc;
          mx = std::max(mx, sc[j]);
        }
        for (int j = 0; j < n; ++j) {
          const double p = std::exp(sc[j] - mx);
          l += p;
          for (int d = 0; d < 512; ++d) o[d] += p * rows[static_cast<size_t>(j) * 576 + d];
        }
        for (int d = 0; d < 512; ++d) r3.push_back(o[d] / l);
      }
    }
    for (int v = 0; v < kSparseVariants; ++v) {
      HW_CHECK(cudaMemsetAsync(out, 0xFF, static_cast<size_t>(q) * heads * kLat * 16, s));
      run_mla(heads, v, c, q, csc);
      HW_CHECK_LAUNCH();
      std::vector<__nv_bfloat16> go(static_cast<size_t>(q) * heads * kLat * 8);
      HW_CHECK(cudaMemcpyAsync(go.data(), out, go.size() * 2, cudaMemcpyDeviceToHost, s));
      HW_CHECK(cudaStreamSynchronize(s));
      std::vector<double> g3;
      long long unw = 0;
      for (int i : toks)
        for (int e = 0; e < heads * 512; ++e) {
          const float gv = __bfloat162float(go[static_cast<size_t>(i) * heads * 512 + e]);
          unw += !std::isfinite(gv);
          g3.push_back(gv);
        }
      mla_check[hv][v] = verdict(max_rel(g3, r3), rel_l2(g3, r3), 1e-2, unw, 0);
    }
  }
  for (int v = 0; v < kIndexerVariants; ++v)
    std::printf("[prefill] check indexer v%d: %s\n", v, idx_check[v].c_str());
  for (int hv = 0; hv < 2; ++hv)
    for (int v = 0; v < kSparseVariants; ++v)
      std::printf("[prefill] check sparse H=%d v%d: %s\n", hv ? 16 : 64, v,
                  mla_check[hv][v].c_str());

  if (std::getenv("PDSIM_PREFILL_PROFILE")) {  // one launch of each variant, for ncu
    gen(16384, nq);
    for (int v = 0; v < kIndexerVariants; ++v) run_idx(v, 16384, nq);
    for (int heads : {64, 16})
      for (int v = 0; v < kSparseVariants; ++v) run_mla(heads, v, 16384, nq, scale);
    HW_CHECK(cudaStreamSynchronize(s));
    HW_CHECK_LAUNCH();
    cs.clear();
  }
  std::vector<std::string> idx_rows, mla_rows;
  for (int c : cs) {
    const double q = nq, ctx = c + q, pairs = q * c + q * (q + 1) / 2;
    const double iflops = 2.0 * kIH * kID * pairs, ibytes = ctx * (kID + 4) + pairs * 4 * 2;
    for (int v = 0; v < kIndexerVariants; ++v) {
      std::vector<double> ius = time_batches_us(s, 1, reps, 1, [&](int) { run_idx(v, c, nq); });
      const double imed = stats_of(ius).median;
      const double iroof = std::max(iflops / kFp8Peak, ibytes / kHbm);
      std::printf("[prefill] indexer v%d c+q=%d: %.1f us, %.1f TFLOP/s, eff %.3f\n", v,
                  static_cast<int>(ctx), imed, iflops / (imed * 1e6), iroof / (imed * 1e-6));
      idx_rows.push_back(jobj({{"variant", jstr(indexer_variant(v))},
                               {"check", jstr(idx_check[v])},
                               {"cached", jnum(c)},
                               {"query_tokens", jnum(q)},
                               {"context_total", jnum(ctx)},
                               {"pairs", jnum(pairs)},
                               {"flops", jnum(iflops)},
                               {"bytes", jnum(ibytes)},
                               {"bytes_written", jnum(pairs * 4)},
                               {"us", us_json(ius)},
                               {"TFLOPs_median", jnum(iflops / (imed * 1e6))},
                               {"eff_fp8_peak", jnum(iflops / kFp8Peak / (imed * 1e-6))},
                               {"eff_roofline", jnum(iroof / (imed * 1e-6))}}));
    }
    gen(c, nq);
    double sp = 0;
    for (int i = 1; i <= nq; ++i) sp += std::min(c + i, kTopK);
    for (int heads : {64, 16})
      for (int v = 0; v < kSparseVariants; ++v) {
        const double flops = 2.0 * heads * 1088 * sp;
        const double bytes = sp * 1152 + q * kTopK * 4 + q * heads * 1088 * 2 + q * (1152 + 132);
        std::vector<double> us =
            time_batches_us(s, 1, reps, 1, [&](int) { run_mla(heads, v, c, nq, scale); });
        const double med = stats_of(us).median, roof = std::max(flops / kBf16Peak, bytes / kHbm);
        std::printf("[prefill] sparse H=%d v%d c+q=%d: %.1f us, %.1f TFLOP/s, eff %.3f\n", heads, v,
                    static_cast<int>(ctx), med, flops / (med * 1e6), roof / (med * 1e-6));
        mla_rows.push_back(jobj({{"heads", jnum(heads)},
                                 {"variant", jstr(sparse_variant(v))},
                                 {"check", jstr(mla_check[heads == 64 ? 0 : 1][v])},
                                 {"cached", jnum(c)},
                                 {"query_tokens", jnum(q)},
                                 {"context_total", jnum(ctx)},
                                 {"pairs_sparse", jnum(sp)},
                                 {"flops", jnum(flops)},
                                 {"bytes", jnum(bytes)},
                                 {"us", us_json(us)},
                                 {"TFLOPs_median", jnum(flops / (med * 1e6))},
                                 {"eff_bf16_peak", jnum(flops / kBf16Peak / (med * 1e-6))},
                                 {"eff_roofline", jnum(roof / (med * 1e-6))}}));
      }
    std::fflush(stdout);
  }
  HW_CHECK(cudaStreamDestroy(s));
  for (void* p : {static_cast<void*>(keys), static_cast<void*>(kscale), static_cast<void*>(qi),
                  static_cast<void*>(w), static_cast<void*>(logits), static_cast<void*>(kv),
                  static_cast<void*>(qa), static_cast<void*>(idx), static_cast<void*>(out)})
    HW_CHECK(cudaFree(p));
  return jobj(
      {{"query_tokens", jnum(nq)},
       {"timing", jstr("CUDA events around single launches (ms-long kernels), warm-up first; us "
                       "per call; inputs read once per call (compute-bound, no L2 rotation)")},
       {"peaks_used", jstr("datasheet: FP8 dense 1979 TFLOP/s, BF16 dense 989.5 TFLOP/s, HBM 4800 "
                           "GB/s; eff_roofline = max(flops/peak, bytes/HBM) / time")},
       {"indexer_prefill",
        jobj({{"what",
               jstr("lightning-indexer logits of one request's 16384-token prefill chunk after c "
                    "cached tokens: fp8 e4m3 q (32 heads x 128) and k (128 + fp32 scale), fp32 "
                    "accumulators, relu, fp32 per-(token, head) weights, fp32 logits row-major "
                    "[q x (c+q)]; masked entries t > c+i are NOT written (a consumer bounds each "
                    "row, as DeepGEMM fp8_mqa_logits' ks/ke). Variants: mma.sync (emulated on "
                    "Hopper, a loose lower bound) and wgmma. A PROXY: SGLang runs DeepGEMM "
                    "fp8_mqa_logits (wgmma, TMA, warp-specialised), so even the wgmma rows are a "
                    "lower bound. flops = 2*32*128*pairs, pairs = q*c + q(q+1)/2; bytes (as the "
                    "simulator counts) = (c+q)*132 + pairs*4*2; bytes_written = pairs*4")},
              {"checks", jarr({jstr(idx_check[0]), jstr(idx_check[1])})},
              {"rows", jarr(idx_rows)}})},
       {"sparse_mla_prefill",
        jobj({{"what",
               jstr("DSA sparse attention over the absorbed MLA latent (NSA-backend prefill "
                    "form): per query token min(c+i, 2048) pseudo-random distinct selected rows "
                    "(576 bf16) gathered once into shared memory for all H heads (FlashMLA "
                    "sparse-prefill style), QK over 576, online softmax, PV over 512, bf16 "
                    "mma.sync m16n8k16 with fp32 accumulators, bf16 out; one CTA (8 warps) per "
                    "query token, 64 rows per block, 2 buffers. A PROXY: FlashMLA's sparse prefill "
                    "uses wgmma, so this is a lower bound. flops = 2*H*1088*pairs_sparse; bytes "
                    "(simulator) = pairs_sparse*1152 + q*2048*4 + q*H*1088*2 + q*(1152+132)")},
              {"checks", jarr({jstr(mla_check[0][0]), jstr(mla_check[0][1]), jstr(mla_check[1][0]),
                               jstr(mla_check[1][1])})},
              {"rows", jarr(mla_rows)}})}});
}

}  // namespace hw

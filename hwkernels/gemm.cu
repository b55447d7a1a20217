// Dense and grouped GEMM through cuBLASLt at MoE expert shapes, BF16 and FP8 (per-tensor scales,
// and 1x128 / 128x128 block scales where this cuBLASLt offers them on Hopper).
// Layout as in inference engines: out[M][N] = x[M][K] . W[N][K]^T, i.e. cuBLASLt column-major
// D(N x M) = op(A = W, transposed) . B(= x), so the weight is operand A and tokens are cuBLASLt n
// (block-scaled FP8 swaps the operands: see run_case).
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include "common.hpp"

#define LT_TRY(call)                                                                     \
  do {                                                                                   \
    cublasStatus_t st_ = (call);                                                         \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                    \
      return std::string(#call) + " -> status " + std::to_string(static_cast<int>(st_)); \
  } while (0)

// 1x128 / 128x128 block scales on Hopper arrived in cuBLAS 12.9; older toolkits still compile.
#if defined(CUBLAS_VERSION) && CUBLAS_VERSION >= 120900
#define HW_HAVE_BLOCK_SCALES 1
#else
#define HW_HAVE_BLOCK_SCALES 0
#endif

namespace hw {
namespace {

enum class Mode { kBf16, kFp8Tensor, kFp8Block };
const char* mode_name(Mode m) {
  return m == Mode::kBf16
             ? "bf16"
             : (m == Mode::kFp8Tensor ? "fp8_e4m3_per_tensor" : "fp8_e4m3_block_1x128_128x128");
}

__global__ void fill_bf16(__nv_bfloat16* p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = __float2bfloat16_rn(hval(i, seed));
}
__global__ void fill_fp8(__nv_fp8_e4m3* p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = __nv_fp8_e4m3(hval(i, seed));
}
__global__ void fill_scale(float* p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = hscale(i, seed);
}

float host_elem(Mode m, unsigned long long idx, unsigned long long seed) {
  float v = hval(idx, seed);
  if (m == Mode::kBf16) return __bfloat162float(__float2bfloat16_rn(v));
  return static_cast<float>(__nv_fp8_e4m3(v));
}

struct Shape {
  int hidden, n, k, experts;
  const char* op;
};

constexpr unsigned long long kSeedW = 11, kSeedX = 23, kSeedSW = 37, kSeedSX = 41;
constexpr float kScaleW = 0.25f, kScaleX = 0.5f;  // per-tensor FP8 scales

struct Buffers {
  void* w = nullptr;  // `copies` identical copies, rotated so weights come from HBM
  void* x = nullptr;
  __nv_bfloat16* d = nullptr;
  float *sw = nullptr, *sx = nullptr;  // scales (per-tensor: one float each)
  void* ws = nullptr;
  size_t ws_bytes = 64ull << 20;
  int copies = 1;
  size_t w_elems = 0;
};

// One (shape, mode, M): set up cuBLASLt, time, check sampled outputs. Returns "" or why it failed.
std::string run_case(cublasLtHandle_t lt, cudaStream_t s, const Shape& sh, Mode mode, int m,
                     int m_max, const Buffers& b, const Options& o, Fields& row) {
  const bool fp8 = mode != Mode::kFp8Block ? mode == Mode::kFp8Tensor : true;
  const cudaDataType_t in_t = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
  const size_t elt = fp8 ? 1 : 2;
  const int n = sh.n, k = sh.k, e = sh.experts;
  cublasLtMatmulDesc_t op;
  LT_TRY(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  // Block scales on Hopper are offered for A = 1x128-scaled, B = 128x128-scaled (NVIDIA's
  // LtBlk128x128Fp8Matmul sample), so there the tokens are operand A and the output is N-major.
  const bool swap = mode == Mode::kFp8Block;
  const void* sa = swap ? b.sx : b.sw;
  const void* sb = swap ? b.sw : b.sx;
  if (fp8) {
    LT_TRY(
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa, sizeof sa));
    LT_TRY(
        cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb, sizeof sb));
  }
  if (swap) {
#if HW_HAVE_BLOCK_SCALES
    int32_t am = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F,
            bm = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &am, sizeof am));
    LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &bm, sizeof bm));
#else
    return "block scales need cuBLAS 12.9 or newer";
#endif
  }
  cublasLtMatrixLayout_t la, lb, lc;
  LT_TRY(cublasLtMatrixLayoutCreate(&la, in_t, k, swap ? m : n, k));
  LT_TRY(cublasLtMatrixLayoutCreate(&lb, in_t, k, swap ? n : m, k));
  LT_TRY(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, swap ? m : n, swap ? n : m, swap ? m : n));
  if (e > 1) {
    int32_t bc = e;
    int64_t sa = static_cast<int64_t>(n) * k, sb = static_cast<int64_t>(m_max) * k,
            sc = static_cast<int64_t>(m_max) * n;
    for (auto [l, st] : {std::pair{la, sa}, std::pair{lb, sb}, std::pair{lc, sc}}) {
      LT_TRY(
          cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof bc));
      LT_TRY(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &st,
                                              sizeof st));
    }
  }
  cublasLtMatmulPreference_t pref;
  LT_TRY(cublasLtMatmulPreferenceCreate(&pref));
  LT_TRY(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                              &b.ws_bytes, sizeof b.ws_bytes));
  cublasLtMatmulHeuristicResult_t heur;
  int found = 0;
  LT_TRY(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &heur, &found));
  if (found == 0) return "no cuBLASLt algorithm for this configuration";
  const float alpha = 1.0f, beta = 0.0f;
  const size_t w_bytes = b.w_elems * elt;
  std::string launch_err;
  auto gemm = [&](int call) {
    const char* w = static_cast<const char*>(b.w) + static_cast<size_t>(call % b.copies) * w_bytes;
    const void* pa = swap ? b.x : static_cast<const void*>(w);
    const void* pb = swap ? static_cast<const void*>(w) : b.x;
    cublasStatus_t st = cublasLtMatmul(lt, op, &alpha, pa, la, pb, lb, &beta, b.d, lc, b.d, lc,
                                       &heur.algo, b.ws, b.ws_bytes, s);
    if (st != CUBLAS_STATUS_SUCCESS && launch_err.empty())
      launch_err = "cublasLtMatmul status " + std::to_string(static_cast<int>(st));
  };
  const double flops = 2.0 * m * n * static_cast<double>(k) * e;
  const int per_batch = flops > 1e12 ? 2 : (flops > 1e10 ? 10 : 30);
  gemm(0);  // outside capture first: a call that fails must not be left inside a graph
  HW_CHECK(cudaStreamSynchronize(s));
  if (!launch_err.empty()) return launch_err;
  auto us = time_graph_us(s, 2, o.quick ? 3 : 7, per_batch, gemm);
  if (!launch_err.empty()) return launch_err;

  // Check: poison, run once, compare 48 sampled outputs with a double-precision CPU reference.
  HW_CHECK(
      cudaMemsetAsync(b.d, 0xFF, sizeof(__nv_bfloat16) * static_cast<size_t>(e) * m_max * n, s));
  gemm(0);
  HW_CHECK(cudaStreamSynchronize(s));
  Gen g(1000 + static_cast<unsigned long long>(m) * 7 + static_cast<unsigned long long>(n));
  const int kb = k / 128;
  // Block-scale layouts are checked under each plausible storage order; the best one is reported.
  const char* hyp_name[4] = {"w:kb-fastest,x:kb-fastest", "w:kb-fastest,x:token-fastest",
                             "w:nb-fastest,x:kb-fastest", "w:nb-fastest,x:token-fastest"};
  const int hyps = mode == Mode::kFp8Block ? 4 : 1;
  std::vector<std::vector<double>> ref(hyps);
  std::vector<double> got;
  for (int smp = 0; smp < 48; ++smp) {
    const int ei = static_cast<int>(g.next() % static_cast<unsigned long long>(e));
    const int mi = static_cast<int>(g.next() % static_cast<unsigned long long>(m));
    const int ni = static_cast<int>(g.next() % static_cast<unsigned long long>(n));
    __nv_bfloat16 v;
    const size_t at = swap ? static_cast<size_t>(ni) * m + mi : static_cast<size_t>(mi) * n + ni;
    HW_CHECK(cudaMemcpy(&v, b.d + static_cast<size_t>(ei) * m_max * n + at, sizeof v,
                        cudaMemcpyDeviceToHost));
    got.push_back(static_cast<double>(__bfloat162float(v)));
    for (int h = 0; h < hyps; ++h) {
      double acc = 0;
      for (int kk = 0; kk < k; ++kk) {
        const unsigned long long wi = static_cast<unsigned long long>(ei) * n * k +
                                      static_cast<unsigned long long>(ni) * k + kk;
        const unsigned long long xi = static_cast<unsigned long long>(ei) * m_max * k +
                                      static_cast<unsigned long long>(mi) * k + kk;
        double term =
            static_cast<double>(host_elem(mode, wi, kSeedW)) * host_elem(mode, xi, kSeedX);
        if (mode == Mode::kFp8Block) {
          const int kbi = kk / 128, nbi = ni / 128;
          const unsigned long long swi =
              (h < 2) ? static_cast<unsigned long long>(nbi) * kb + kbi
                      : static_cast<unsigned long long>(kbi) * (n / 128) + nbi;
          const unsigned long long sxi = (h % 2 == 0)
                                             ? static_cast<unsigned long long>(mi) * kb + kbi
                                             : static_cast<unsigned long long>(kbi) * m + mi;
          term *= static_cast<double>(hscale(swi, kSeedSW)) * hscale(sxi, kSeedSX);
        }
        acc += term;
      }
      if (mode == Mode::kFp8Tensor) acc *= static_cast<double>(kScaleW) * kScaleX;
      ref[static_cast<size_t>(h)].push_back(acc);
    }
  }
  double best = INFINITY;
  int best_h = 0;
  for (int h = 0; h < hyps; ++h) {
    double r = rel_l2(got, ref[static_cast<size_t>(h)]);
    if (r < best) best = r, best_h = h;
  }
  const double tol = fp8 ? 2e-2 : 1e-2;  // bf16 output rounding ~2e-3; fp8 accumulation adds more
  Stats st = stats_of(us);
  const double bytes = static_cast<double>(e) * (static_cast<double>(n) * k * elt +
                                                 static_cast<double>(m) * k * elt + 2.0 * m * n);
  row = {{"M", jnum(m)},
         {"us", jstats(st)},
         {"TFLOPs_median", jnum(flops / (st.median * 1e6))},
         {"GBps_median", jnum(bytes / (st.median * 1e3))},
         {"flops", jnum(flops)},
         {"bytes_min", jnum(bytes)},
         {"rel_err_sampled", jnum(best)},
         {"check", jstr(best < tol ? "pass" : "FAIL")},
         {"calls_per_batch", jnum(per_batch)}};
  if (mode == Mode::kFp8Block) {
    row.push_back({"block_scale_layout_matched", jstr(hyp_name[best_h])});
    row.push_back(
        {"operands", jstr("A = activations (1x128 scales), B = weights (128x128 scales)")});
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(op);
  return "";
}

std::string run_series(cublasLtHandle_t lt, cudaStream_t s, const Shape& sh, Mode mode,
                       const std::vector<int>& ms, const Options& o) {
  const bool fp8 = mode != Mode::kBf16;
  const size_t elt = fp8 ? 1 : 2;
  const int m_max = ms.back();
  Buffers b;
  b.w_elems = static_cast<size_t>(sh.experts) * sh.n * sh.k;
  b.copies = static_cast<int>(
      std::max<size_t>(1, std::min<size_t>(16, (512ull << 20) / (b.w_elems * elt))));
  const size_t x_elems = static_cast<size_t>(sh.experts) * m_max * sh.k;
  HW_CHECK(cudaMalloc(&b.w, b.w_elems * elt * b.copies));
  HW_CHECK(cudaMalloc(&b.x, x_elems * elt));
  HW_CHECK(
      cudaMalloc(&b.d, sizeof(__nv_bfloat16) * static_cast<size_t>(sh.experts) * m_max * sh.n));
  HW_CHECK(cudaMalloc(&b.ws, b.ws_bytes));
  const size_t nsw = mode == Mode::kFp8Block ? static_cast<size_t>(sh.n / 128) * (sh.k / 128) : 1;
  const size_t nsx = mode == Mode::kFp8Block ? static_cast<size_t>(m_max + 4) * (sh.k / 128) : 1;
  HW_CHECK(cudaMalloc(&b.sw, sizeof(float) * nsw));
  HW_CHECK(cudaMalloc(&b.sx, sizeof(float) * nsx));
  if (fp8) {
    fill_fp8<<<1024, 256, 0, s>>>(static_cast<__nv_fp8_e4m3*>(b.w), b.w_elems, kSeedW);
    fill_fp8<<<1024, 256, 0, s>>>(static_cast<__nv_fp8_e4m3*>(b.x), x_elems, kSeedX);
  } else {
    fill_bf16<<<1024, 256, 0, s>>>(static_cast<__nv_bfloat16*>(b.w), b.w_elems, kSeedW);
    fill_bf16<<<1024, 256, 0, s>>>(static_cast<__nv_bfloat16*>(b.x), x_elems, kSeedX);
  }
  HW_CHECK_LAUNCH();
  if (mode == Mode::kFp8Block) {
    fill_scale<<<64, 256, 0, s>>>(b.sw, nsw, kSeedSW);
    fill_scale<<<64, 256, 0, s>>>(b.sx, nsx, kSeedSX);
  } else if (fp8) {
    HW_CHECK(cudaMemcpyAsync(b.sw, &kScaleW, sizeof(float), cudaMemcpyHostToDevice, s));
    HW_CHECK(cudaMemcpyAsync(b.sx, &kScaleX, sizeof(float), cudaMemcpyHostToDevice, s));
  }
  HW_CHECK_LAUNCH();
  for (int c = 1; c < b.copies; ++c)
    HW_CHECK(cudaMemcpyAsync(static_cast<char*>(b.w) + c * b.w_elems * elt, b.w, b.w_elems * elt,
                             cudaMemcpyDeviceToDevice, s));
  HW_CHECK(cudaStreamSynchronize(s));
  std::vector<std::string> rows;
  std::string first_err;
  for (int m : ms) {
    Fields row;
    std::string err = run_case(lt, s, sh, mode, m, m_max, b, o, row);
    bool failed_check = false;
    for (const auto& f : row) failed_check |= f.first == "check" && f.second != jstr("pass");
    if ((!err.empty() || failed_check) && m % 16 != 0 && m < m_max) {
      if (err.empty()) err = "unpadded run gave wrong results (rel_err " + row[6].second + ")";
      // Engines pad tokens to the kernel's tile; time the padded GEMM and say so.
      const int padded = (m + 15) / 16 * 16;
      if (run_case(lt, s, sh, mode, padded, m_max, b, o, row).empty()) {
        row[0] = {"M", jnum(m)};
        row.push_back({"run_with_M_padded_to", jnum(padded)});
        row.push_back({"unpadded_error", jstr(err)});
        rows.push_back(jobj(row));
        continue;
      }
    }
    if (failed_check) err = "check FAIL: " + err;
    if (!err.empty()) {
      if (first_err.empty()) first_err = err;
      rows.push_back(jobj({{"M", jnum(m)}, {"error", jstr(err)}}));
      continue;
    }
    rows.push_back(jobj(row));
  }
  HW_CHECK(cudaFree(b.w));
  HW_CHECK(cudaFree(b.x));
  HW_CHECK(cudaFree(b.d));
  HW_CHECK(cudaFree(b.ws));
  HW_CHECK(cudaFree(b.sw));
  HW_CHECK(cudaFree(b.sx));
  std::printf("  gemm %s %s hidden=%d N=%d K=%d experts=%d%s\n", mode_name(mode), sh.op, sh.hidden,
              sh.n, sh.k, sh.experts,
              first_err.empty() ? "" : (" (errors: " + first_err + ")").c_str());
  std::fflush(stdout);
  return jobj({{"dtype", jstr(mode_name(mode))},
               {"op", jstr(sh.op)},
               {"hidden", jnum(sh.hidden)},
               {"N", jnum(sh.n)},
               {"K", jnum(sh.k)},
               {"experts", jnum(sh.experts)},
               {"weight_copies_rotated", jnum(b.copies)},
               {"rows", jarr(rows)}});
}

}  // namespace

std::string bench_gemm(const Options& o) {
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasLtCreate failed\n");
    std::exit(3);
  }
  cudaStream_t s;
  HW_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int inter = 2048;  // moe_intermediate_size
  std::vector<int> ms;
  for (int m = 1; m <= (o.quick ? 256 : 4096); m *= 2) ms.push_back(m);
  std::vector<std::string> dense, grouped;
  for (int hidden : {7168, 6144}) {
    for (Mode mode : {Mode::kBf16, Mode::kFp8Tensor, Mode::kFp8Block}) {
      dense.push_back(run_series(lt, s, {hidden, 2 * inter, hidden, 1, "up_gate"}, mode, ms, o));
      dense.push_back(run_series(lt, s, {hidden, hidden, inter, 1, "down"}, mode, ms, o));
    }
  }
  // Grouped: 32 local experts (256 routed experts over EP8), equal tokens per expert, as one
  // strided-batched cuBLASLt call; FP8 with per-tensor scales (block scales need per-batch
  // scale strides that this benchmark does not set up).
  std::vector<int> gms;
  for (int m = 1; m <= (o.quick ? 64 : 2048); m *= 2) gms.push_back(m);
  for (Mode mode : {Mode::kBf16, Mode::kFp8Tensor}) {
    grouped.push_back(run_series(lt, s, {7168, 2 * inter, 7168, 32, "up_gate"}, mode, gms, o));
    grouped.push_back(run_series(lt, s, {7168, 7168, inter, 32, "down"}, mode, gms, o));
  }
  HW_CHECK(cudaStreamDestroy(s));
  cublasLtDestroy(lt);
  int ver = static_cast<int>(cublasLtGetVersion());
  return jobj(
      {{"cublasLt_version", jnum(ver)},
       {"algorithm", jstr("cuBLASLt heuristic's first choice, 64 MiB workspace")},
       {"timing", jstr("calls_per_batch GEMMs captured in a CUDA graph, replayed; us is per GEMM")},
       {"layout", jstr("out[M][N] = x[M][K] . W[N][K]^T, bf16 output, fp32 accumulate")},
       {"dense", jarr(dense)},
       {"grouped", jarr(grouped)}});
}

}  // namespace hw

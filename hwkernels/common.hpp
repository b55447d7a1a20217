// Shared helpers for the H200 microbenchmarks: error checks, timing statistics, JSON fragments.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#define HW_CHECK(call)                                                                       \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, \
                   __LINE__, cudaGetErrorString(err_));                                      \
      std::exit(3);                                                                          \
    }                                                                                        \
  } while (0)

// Checks the launch itself and, in the same place, any asynchronous fault it caused.
#define HW_CHECK_LAUNCH() HW_CHECK(cudaGetLastError())

namespace hw {

// Order statistics of one figure's repetitions (exact, nearest-rank on the sorted sample).
struct Stats {
  double median = 0, p01 = 0, p99 = 0, p999 = 0, min = 0, max = 0, mean = 0;
  size_t n = 0;
};

inline double quantile_sorted(const std::vector<double>& s, double q) {
  if (s.empty()) return 0.0;
  size_t idx = static_cast<size_t>(std::ceil(q * static_cast<double>(s.size())));
  if (idx > 0) --idx;
  return s[std::min(idx, s.size() - 1)];
}

inline Stats stats_of(std::vector<double> v) {
  Stats st;
  st.n = v.size();
  if (v.empty()) return st;
  std::sort(v.begin(), v.end());
  st.median = quantile_sorted(v, 0.5);
  st.p01 = quantile_sorted(v, 0.01);
  st.p99 = quantile_sorted(v, 0.99);
  st.p999 = quantile_sorted(v, 0.999);
  st.min = v.front();
  st.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  st.mean = sum / static_cast<double>(v.size());
  return st;
}

// Minimal JSON fragment builders (the driver writes one raw-results file; no library needed on
// the device machine).
inline std::string jnum(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}
inline std::string jstr(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) >= 0x20) {
      out += c;
    }
  }
  return out + "\"";
}
inline std::string jarr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]";
}
inline std::string jnums(const std::vector<double>& xs) {
  std::vector<std::string> items;
  for (double x : xs) items.push_back(jnum(x));
  return jarr(items);
}
using Fields = std::vector<std::pair<std::string, std::string>>;
inline std::string jobj(const Fields& f) {
  std::string out = "{";
  for (size_t i = 0; i < f.size(); ++i)
    out += (i ? "," : "") + jstr(f[i].first) + ":" + f[i].second;
  return out + "}";
}
inline std::string jstats(const Stats& s) {
  return jobj({{"median", jnum(s.median)},
               {"p01", jnum(s.p01)},
               {"p99", jnum(s.p99)},
               {"p999", jnum(s.p999)},
               {"min", jnum(s.min)},
               {"max", jnum(s.max)},
               {"mean", jnum(s.mean)},
               {"n", jnum(static_cast<double>(s.n))}});
}

// Times `per_batch` back-to-back calls of fn on `stream` with events, `batches` times, after
// `warmup` untimed calls; returns the time of one call in microseconds for each batch.
template <typename F>
std::vector<double> time_batches_us(cudaStream_t stream, int warmup, int batches, int per_batch,
                                    F&& fn) {
  for (int i = 0; i < warmup; ++i) fn(i);
  HW_CHECK(cudaStreamSynchronize(stream));
  HW_CHECK_LAUNCH();
  cudaEvent_t e0, e1;
  HW_CHECK(cudaEventCreate(&e0));
  HW_CHECK(cudaEventCreate(&e1));
  std::vector<double> out;
  int call = warmup;
  for (int b = 0; b < batches; ++b) {
    HW_CHECK(cudaEventRecord(e0, stream));
    for (int i = 0; i < per_batch; ++i) fn(call++);
    HW_CHECK(cudaEventRecord(e1, stream));
    HW_CHECK(cudaEventSynchronize(e1));
    HW_CHECK_LAUNCH();
    float ms = 0;
    HW_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    out.push_back(1000.0 * static_cast<double>(ms) / per_batch);
  }
  HW_CHECK(cudaEventDestroy(e0));
  HW_CHECK(cudaEventDestroy(e1));
  return out;
}

// Like time_batches_us, but the `per_batch` calls are captured once into a CUDA graph that is
// replayed, as inference engines run decode steps: no host launch cost, only the graph's
// per-kernel gap. fn(call) must only enqueue work on `stream`.
template <typename F>
std::vector<double> time_graph_us(cudaStream_t stream, int warmup, int batches, int per_batch,
                                  F&& fn) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  HW_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < per_batch; ++i) fn(i);
  HW_CHECK(cudaStreamEndCapture(stream, &graph));
  HW_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<double> us = time_batches_us(stream, warmup, batches, 1,
                                           [&](int) { HW_CHECK(cudaGraphLaunch(exec, stream)); });
  for (double& u : us) u /= per_batch;
  HW_CHECK(cudaGraphExecDestroy(exec));
  HW_CHECK(cudaGraphDestroy(graph));
  return us;
}

// Relative error ||out - ref|| / ||ref|| in double.
inline double rel_l2(const std::vector<double>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    double d = out[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (!std::isfinite(num)) return INFINITY;
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

// Deterministic 64-bit generator for test inputs (splitmix64); uniform in [-1, 1).
struct Gen {
  unsigned long long s;
  explicit Gen(unsigned long long seed) : s(seed) {}
  unsigned long long next() {
    unsigned long long z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform() {
    return static_cast<float>(static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0);
  }
};

// Deterministic test-input value in [-1, 1), identical on host and device (inputs are filled on
// the GPU and re-derived on the CPU for the reference).
__host__ __device__ inline float hval(unsigned long long idx, unsigned long long seed) {
  unsigned long long z = idx * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0);
}
__host__ __device__ inline float hscale(unsigned long long idx, unsigned long long seed) {
  return 0.5f + 0.75f * (hval(idx, seed) + 1.0f);  // [0.5, 2)
}

// FP8 e4m3 mma.sync (m16n8k32, fp32 accumulate). On sm_90 ptxas lowers it to fp8->fp16 unpacks
// and fp16 HMMA (no FP8 datapath for mma.sync on Hopper; wgmma has one).
__device__ __forceinline__ void mma_e4m3(float (&c)[4], unsigned a0, unsigned a1, unsigned a2,
                                         unsigned a3, unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// Benchmarks: each returns one JSON object of raw tables; `quick` shrinks sizes for a smoke run.
struct Options {
  bool quick = false;
  int device = 0;
};
std::string bench_proxy(const Options& o);
std::string bench_launch(const Options& o);
std::string bench_hbm(const Options& o);
std::string bench_gemm(const Options& o);
std::string bench_attention(const Options& o);
std::string bench_nvlink(const Options& o);
std::string bench_ep(const Options& o);           // ep_a2a.cu
std::string bench_collectives(const Options& o);  // collectives.cu
std::string bench_nccl(const Options& o);         // nccl_allreduce.cu
std::string bench_prefill(const Options& o);      // prefill.cu

}  // namespace hw

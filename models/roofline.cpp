#include "models/roofline.hpp"

#include <algorithm>
#include <cmath>

namespace pdsim {

double linear_weight_bytes(double rows, double cols, bool fp8, int block) {
  if (!fp8) return rows * cols * kBf16Bytes;
  double b = block;
  return rows * cols * kFp8Bytes + std::ceil(rows / b) * std::ceil(cols / b) * kFp32Bytes;
}

double model_linear_bytes(const ModelConfig& m, double rows, double cols) {
  return linear_weight_bytes(rows, cols, m.weight_dtype == "fp8", m.weight_block);
}

OpCost Roofline::op(const char* name, const char* category, double flops, double bytes, Peak peak,
                    const EfficiencyCurve& curve, double x) const {
  double peak_flops_per_s =
      (peak == Peak::fp8 ? gpu_.fp8_dense_tflops : gpu_.bf16_dense_tflops) * 1e12;
  double t_compute_s = flops / peak_flops_per_s;
  double t_memory_s = bytes / (gpu_.hbm_GBps * 1e9);
  auto eff = curve.at(x);
  OpCost o;
  o.name = name;
  o.category = category;
  o.flops = flops;
  o.bytes = bytes;
  o.time_us = std::max(t_compute_s, t_memory_s) / eff.eff * 1e6;
  o.compute_bound = t_compute_s > t_memory_s;
  o.out_of_range = eff.out_of_range;
  return o;
}

OpCost Roofline::stream(const char* name, const char* category, double flops, double bytes) const {
  return op(name, category, flops, bytes, Peak::bf16, prof_.hbm_stream, bytes);
}

OpCost Roofline::gemm(const char* name, const char* category, double M, double N, double K,
                      bool fp8, int block) const {
  double weights = linear_weight_bytes(N, K, fp8, block);
  double input =
      fp8 ? M * K * kFp8Bytes + M * std::ceil(K / block) * kFp32Bytes : M * K * kBf16Bytes;
  double output = M * N * kBf16Bytes;
  return op(name, category, 2.0 * M * N * K, weights + input + output, fp8 ? Peak::fp8 : Peak::bf16,
            fp8 ? prof_.gemm_fp8 : prof_.gemm_bf16, M);
}

}  // namespace pdsim

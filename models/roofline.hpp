#pragma once
// Roofline timing of one op: roofline_time = max(flops / datasheet peak, bytes / datasheet HBM
// bandwidth); achieved time = roofline_time / efficiency, the efficiency looked up in the GPU
// profile's curve for the op's family at the op's shape variable. Also the storage bytes of
// linear-layer weights (FP8 block-scaled or BF16), shared by the compute and memory models.
#include <string>

#include "models/gpu_profile.hpp"
#include "models/hardware.hpp"
#include "models/model_config.hpp"
#include "models/op_cost.hpp"

namespace pdsim {

constexpr double kBf16Bytes = 2.0;
constexpr double kFp8Bytes = 1.0;
constexpr double kFp32Bytes = 4.0;

// Bytes of a rows × cols weight matrix: BF16 = 2 B per weight; FP8 = 1 B per weight plus one
// FP32 scale per block × block tile (DeepSeek-V3-style weight_scale_inv), tiles rounded up.
double linear_weight_bytes(double rows, double cols, bool fp8, int block);
// The model's own linear layers: FP8 iff weight_dtype == "fp8".
double model_linear_bytes(const ModelConfig& m, double rows, double cols);

class Roofline {
 public:
  enum class Peak { bf16, fp8 };
  Roofline(const GpuSpec& gpu, const GpuProfile& profile) : gpu_(gpu), prof_(profile) {}

  OpCost op(const char* name, const char* category, double flops, double bytes, Peak peak,
            const EfficiencyCurve& curve, double x) const;
  // Memory-bound elementwise kernel (norms, activation, embedding gather): hbm_stream curve.
  OpCost stream(const char* name, const char* category, double flops, double bytes) const;
  // Dense GEMM [M×K] · [K×N]: flops 2MNK; bytes = weights + input activation (FP8 with
  // per-128 scales when the weights are FP8, since the kernel quantizes its input; else BF16)
  // + BF16 output. gemm_fp8 / gemm_bf16 curve at x = M.
  OpCost gemm(const char* name, const char* category, double M, double N, double K, bool fp8,
              int block) const;

  const GpuProfile& profile() const { return prof_; }

 private:
  const GpuSpec& gpu_;
  const GpuProfile& prof_;
};

}  // namespace pdsim

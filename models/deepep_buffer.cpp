// DeepEP low-latency buffer size, following DeepEP's published layout (deepseek-ai/DeepEP
// csrc/config.hpp, struct LowLatencyLayout and get_low_latency_rdma_size_hint; read at commit
// 030cdf0ad4538c1d9ee92872b5be77d01b067a60):
//   num_scales          = hidden / 128
//   dispatch message    = 16 (int4 header) + max(hidden · 2 [BF16], hidden + num_scales · 4 [FP8])
//   combine message     = num_scales · 4 (per-128-channel BF16 min/max pair) + hidden · 2
//   send buffer         = max(T · dispatch_msg, E · T · combine_msg)       (T = max tokens/rank)
//   receive buffer      = max(E · T · dispatch_msg, E · T · combine_msg)   (E = experts)
//   signaling buffer    = align128(E · 4)                                   (int counts / flags)
//   total               = 2 · (send + receive + signaling)  (odd/even double buffering)
//   size hint           = ((total + 128) / 128) · 128   (NUM_BUFFER_ALIGNMENT_BYTES = 128)
// The number of ranks does not enter the formula (every rank can receive from every expert slot).
#include <algorithm>
#include <cstdint>

#include "models/memory_model.hpp"

namespace pdsim {

double deepep_ll_buffer_bytes(int max_tokens_per_rank, int hidden, int /*num_ranks*/,
                              int num_experts) {
  const int64_t T = max_tokens_per_rank, h = hidden, E = num_experts;
  const int64_t scales = h / 128;
  const int64_t dispatch_msg = 16 + std::max(h * 2, h + scales * 4);
  const int64_t combine_msg = scales * 4 + h * 2;
  const int64_t send = std::max(T * dispatch_msg, E * T * combine_msg);
  const int64_t recv = std::max(E * T * dispatch_msg, E * T * combine_msg);
  const int64_t signaling = (E * 4 + 127) / 128 * 128;
  const int64_t total = 2 * (send + recv + signaling);
  constexpr int64_t kAlign = 128;
  return static_cast<double>((total + kAlign) / kAlign * kAlign);
}

}  // namespace pdsim

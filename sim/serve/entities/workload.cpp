#include "sim/serve/entities/workload.hpp"

#include <algorithm>
#include <cmath>

namespace pdsim {

std::vector<RequestSpec> generate_requests(const WorkloadConfig& w, Rng& rng) {
  auto lower = [&](int len) {
    return std::max(static_cast<int>(std::floor(len * w.range_ratio)), 1);
  };
  const int in_lo = lower(w.input_len), out_lo = lower(w.output_len);
  std::vector<RequestSpec> out(static_cast<size_t>(w.num_prompts));
  // Lengths first, then gaps, as bench_serving samples the dataset before the arrival process.
  for (int i = 0; i < w.num_prompts; ++i) {
    auto& r = out[static_cast<size_t>(i)];
    r.id = i;
    r.input_len = static_cast<int>(rng.uniform_int(in_lo, w.input_len));
  }
  for (auto& r : out) r.output_len = static_cast<int>(rng.uniform_int(out_lo, w.output_len));
  const bool burst = std::isinf(w.request_rate);
  for (size_t i = 1; i < out.size(); ++i)
    out[i].gap_s = burst ? 0.0 : rng.exponential(w.request_rate);
  return out;
}

}  // namespace pdsim

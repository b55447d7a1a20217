#include "models/cuda_graph_capture.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "sim/core/error.hpp"

namespace pdsim {

std::vector<int> default_cuda_graph_bs(bool speculative, int max_bs) {
  // SGLang cuda_graph_runner.get_batch_sizes_to_capture: speculative decoding captures
  // 1..8, then every 2 up to 32, then every 16; otherwise 1, 2, 4, 8, then every 8.
  std::vector<int> all;
  if (speculative) {
    for (int b = 1; b <= 8; ++b) all.push_back(b);
    for (int b = 10; b <= 32; b += 2) all.push_back(b);
    for (int b = 40; b <= 160; b += 16) all.push_back(b);
  } else {
    all = {1, 2, 4, 8};
    for (int b = 16; b <= 160; b += 8) all.push_back(b);
  }
  std::vector<int> out;
  for (int b : all)
    if (b <= max_bs) out.push_back(b);
  return out;
}

std::vector<int> capture_bs_within_pool(std::vector<int> bs, int pool_size, int multiple) {
  if (bs.empty()) return bs;  // CUDA graphs off
  if (*std::max_element(bs.begin(), bs.end()) > pool_size) bs.push_back(pool_size);
  std::erase_if(bs, [&](int b) { return b % multiple != 0 || b > pool_size; });
  std::sort(bs.begin(), bs.end());
  bs.erase(std::unique(bs.begin(), bs.end()), bs.end());
  if (bs.empty()) {
    const std::string pool = pool_size == std::numeric_limits<int>::max()
                                 ? ""
                                 : " and at most the request pool " + std::to_string(pool_size) +
                                       " (max_running_requests / dp)";
    throw InfeasibleError(
        "decode: no CUDA-graph batch size is a multiple of the attention TP size " +
        std::to_string(multiple) + pool +
        "; SGLang's get_batch_sizes_to_capture asserts a non-empty list");
  }
  return bs;
}

}  // namespace pdsim

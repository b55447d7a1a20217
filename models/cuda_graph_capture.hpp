#pragma once
// Which batch sizes SGLang captures as decode CUDA graphs, and so what a replay pads to.
#include <vector>

namespace pdsim {

// SGLang's default CUDA-graph capture batch sizes (cuda_graph_runner), cut at max_bs.
std::vector<int> default_cuda_graph_bs(bool speculative, int max_bs);
// The capture list as SGLang cuts it to the request pool (cuda_graph_runner
// get_batch_sizes_to_capture; docs/research/sglang-parallel-rules.md §1.8): when its largest
// size exceeds the pool, the pool size joins; then only multiples of `multiple` (the attention TP
// size under DP attention, else 1) at most the pool stay; sorted, unique. The pool is
// req_to_token_pool.size = max_running_requests // dp per DP-attention rank
// (model_runner_kv_cache_mixin._resolve_max_num_reqs; DecodeReqToTokenPool.size on a PD decode
// role, its pre-allocation rows apart). So `--cuda-graph-bs 128 --max-running-requests 256` at
// dp 16 captures [16], not [128]. Two-batch overlap (which keeps even sizes) is not modelled.
// An empty result is SGLang's start-up assert: InfeasibleError.
std::vector<int> capture_bs_within_pool(std::vector<int> bs, int pool_size, int multiple = 1);

}  // namespace pdsim

// KV bytes per token and SGLang's static memory rule:
//   kv_pool = hbm × mem_fraction_static − weights − all-to-all buffers,
//   capacity (tokens) = floor(kv_pool / KV bytes per token held on this GPU).
// (SGLang computes the pool as free memory after loading minus hbm × (1 − fraction); with
// nothing else resident that is the same rule.)
#include "models/memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "models/kv_layout.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

std::string gb(double bytes) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << bytes / 1e9 << " GB";
  return os.str();
}

}  // namespace

double kv_bytes_per_token(const ModelConfig& m, KvDtype dtype) {
  return m.num_layers *
         (attention_kv_bytes_per_token_layer(m, dtype) + indexer_kv_bytes_per_token_layer(m));
}

MemoryPlan plan_memory(const ModelConfig& m, const GpuSpec& gpu, const ParallelLayout& l,
                       KvDtype dtype) {
  if (!(l.mem_fraction_static > 0 && l.mem_fraction_static <= 1))
    throw InfeasibleError("mem_fraction_static must be in (0, 1]");
  MemoryPlan p;
  p.weights_bytes = weights_bytes_per_gpu(m, l);
  const double budget = gpu.hbm_bytes * l.mem_fraction_static;
  if (p.weights_bytes >= budget)
    throw InfeasibleError("weights need " + gb(p.weights_bytes) + " per GPU but " + gpu.name +
                          " has " + gb(gpu.hbm_bytes) + " × mem_fraction_static " +
                          std::to_string(l.mem_fraction_static) + " = " + gb(budget));
  if (l.ll_max_dispatch_tokens_per_rank > 0 && m.is_moe())
    p.a2a_buffer_bytes += deepep_ll_buffer_bytes(l.ll_max_dispatch_tokens_per_rank, m.hidden, l.ep,
                                                 m.n_routed_experts);
  if (l.normal_a2a_buffers) p.a2a_buffer_bytes += l.normal_a2a_buffer_bytes;

  // KV per token on this GPU: the layers of the largest PP stage (+ the MTP layer's own draft KV
  // pool when resident). MLA latents are replicated on attention-TP / CP ranks; GQA KV heads are
  // split over attention TP (at least one head per rank).
  const int atp = attention_tp(l);
  const double stage_layers = std::ceil(static_cast<double>(m.num_layers) / l.pp);
  const double layers = stage_layers + (l.mtp ? m.mtp_layers : 0);
  double attn = attention_kv_bytes_per_token_layer(m, dtype);
  if (!m.is_mla())
    attn *= std::max(1.0, static_cast<double>(m.num_kv_heads) / atp) / m.num_kv_heads;
  p.kv_bytes_per_token = layers * (attn + indexer_kv_bytes_per_token_layer(m));

  p.kv_pool_bytes = budget - p.weights_bytes - p.a2a_buffer_bytes;
  if (p.kv_pool_bytes <= 0)
    throw InfeasibleError("no room for the KV cache: " + gb(budget) + " budget − weights " +
                          gb(p.weights_bytes) + " − all-to-all buffers " + gb(p.a2a_buffer_bytes) +
                          " = " + gb(p.kv_pool_bytes));
  p.kv_capacity_tokens = std::floor(p.kv_pool_bytes / p.kv_bytes_per_token);

  p.breakdown =
      Json{{"rule", "kv_pool = hbm x mem_fraction_static - weights - a2a buffers (SGLang)"},
           {"hbm_bytes", gpu.hbm_bytes},
           {"mem_fraction_static", l.mem_fraction_static},
           {"weights_bytes", p.weights_bytes},
           {"a2a_buffer_bytes", p.a2a_buffer_bytes},
           {"kv_layers_per_gpu", layers},
           {"kv_bytes_per_token", p.kv_bytes_per_token},
           {"kv_pool_bytes", p.kv_pool_bytes},
           {"kv_capacity_tokens", p.kv_capacity_tokens},
           {"kv_dtype", kv_dtype_name(dtype)}};
  return p;
}

}  // namespace pdsim

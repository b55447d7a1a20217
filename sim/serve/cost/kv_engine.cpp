#include "sim/serve/cost/kv_engine.hpp"

#include <algorithm>

#include "models/kv_layout.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/fabric/transfers.hpp"
#include "sim/serve/cost/deployment.hpp"

namespace pdsim {

std::optional<KvTransport> resolve_kv_transport(const Scenario& s) {
  if (s.prefill.kv_protocol != "tcp") return std::nullopt;
  if (s.prefill.kv_transfer_backend != "mooncake")
    throw InputError(s.file, "prefill.kv_protocol",
                     "\"rdma\" with kv_transfer_backend \"" + s.prefill.kv_transfer_backend +
                         "\": only Mooncake's TCP transport has a model");
  return load_kv_transport(s.prefill.kv_tcp_transport, s.file, "prefill.kv_tcp_transport");
}

KvEngine kv_engine(const Deployment& d) {
  if (d.kv_tcp)
    return {GBps_to_bytes_per_s(d.kv_tcp->rate_GBps), d.kv_tcp->sharing == "per_rank", false};
  return {kv_transfer_rate(d.fabric, d.kv_block_bytes, d.kv_nics, d.instance.nic_gbps), true, true};
}

double kv_request_bytes(const Deployment& d, double input_tokens) {
  if (!d.kv_tcp) return input_tokens * d.kv_bytes_per_token;
  // A rank holds the KV of its attention heads: MLA's latent whole (replicated over attention
  // TP), GQA's KV heads split over attention TP (at least one per rank), as plan_memory counts.
  const ModelConfig& m = d.model;
  double attn = attention_kv_bytes_per_token_layer(m, d.scenario.decode.kv_cache_dtype);
  if (!m.is_mla())
    attn *= std::max(1.0, static_cast<double>(m.num_kv_heads) / d.prefill_layout.attn_tp) /
            m.num_kv_heads;
  return input_tokens * m.num_layers * (attn + indexer_kv_bytes_per_token_layer(m));
}

Json kv_tcp_summary(const Deployment& d) {
  if (!d.kv_tcp) return nullptr;
  const KvTransport& k = *d.kv_tcp;
  Json outside = nullptr;
  const int conc = d.scenario.workload.max_concurrency;
  if (k.failed_above_concurrency > 0 && conc > k.failed_above_concurrency)
    outside = "max_concurrency " + std::to_string(conc) + " is above " +
              std::to_string(k.failed_above_concurrency) +
              ", where a published run of this transport failed (" + k.failure_seen +
              "); pdsim does not model that failure, so these numbers assume the transfers "
              "complete";
  return Json{{"name", k.name},
              {"rate_GBps", k.rate_GBps},
              {"rate_range_GBps", {k.rate_low_GBps, k.rate_high_GBps}},
              {"sharing", k.sharing},
              {"failed_above_concurrency", k.failed_above_concurrency},
              {"outside_measured", outside}};
}

}  // namespace pdsim

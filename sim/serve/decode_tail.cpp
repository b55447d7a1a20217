#include "sim/serve/decode_tail.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/fabric/transfers.hpp"
#include "sim/serve/cluster_fabric.hpp"

namespace pdsim {

DecodeTail::DecodeTail(const Deployment& d, uint64_t seed)
    : d_(d), prev_compute_(static_cast<size_t>(d.scenario.decode.instances), 0.0) {
  if (d.scenario.fabric.fidelity == "packet" && d.model.is_moe())
    oracle_ = std::make_unique<PacketPhaseOracle>(d, seed);
}

std::vector<BackgroundFlow> DecodeTail::background(int di,
                                                   const std::vector<InFlight>& flows) const {
  const double node_Bps =
      d_.instance.nics_per_node * nic_effective_rate(d_.fabric, d_.instance.nic_gbps);
  const double kv_Bps =
      kv_transfer_rate(d_.fabric, d_.kv_block_bytes, d_.kv_nics, d_.instance.nic_gbps);
  std::map<int, int> kv_from, kv_into;
  for (const auto& f : flows)
    if (f.kv) {
      ++kv_from[f.src];
      ++kv_into[f.dst];
    }
  const int first = decode_node_index(d_, di, 0),
            last = first + d_.scenario.decode.nodes_per_instance;
  std::vector<BackgroundFlow> out;
  for (const auto& f : flows) {
    if (f.kv && (f.dst < first || f.dst >= last)) continue;  // another decode instance's NICs
    if (f.remaining_bytes <= 0) continue;
    const double Bps =
        f.kv ? std::min(kv_Bps / kv_from.at(f.src), node_Bps / kv_into.at(f.dst)) : node_Bps;
    out.push_back(BackgroundFlow{f.src, f.dst, f.kv, Bps * 8e-9, f.remaining_bytes});
  }
  return out;
}

bool DecodeTail::reads_flows() const { return oracle_ && d_.scenario.tail.fabric_background; }

void DecodeTail::apply(int di, const std::vector<RankState>& states,
                       const std::vector<InFlight>& flows, ForwardTerms& t, MechanismTerms& m,
                       Rng& rng) {
  const auto& tail = d_.scenario.tail;
  if (reads_flows()) {
    const auto& sp = d_.scenario.decode.speculative;
    const int q = d_.query_tokens_per_request();
    std::vector<int> verify, draft;
    for (const auto& st : states) {
      verify.push_back(static_cast<int>(st.contexts.size()) * q);
      draft.push_back(static_cast<int>(st.contexts.size()));
    }
    const A2AExcess ex = oracle_->iteration_excess(
        verify, draft, d_.model.num_moe_layers(), sp.enabled() ? sp.num_steps : 0,
        decode_node_index(d_, di, 0), background(di, flows), t.total_us(), rng);
    t.dispatch_us += ex.dispatch_us;
    t.combine_us += ex.combine_us;
    m.fabric_background_us = ex.dispatch_us + ex.combine_us;
    m.loaded_phases = ex.loaded_phases;
  }
  if (tail.scheduler_hiccups.enabled && rng.bernoulli(tail.scheduler_hiccups.probability)) {
    t.scheduler_us += tail.scheduler_hiccups.delay_us;
    m.scheduler_hiccup_us = tail.scheduler_hiccups.delay_us;
  }
  // Batch jump: what the compute grew by since the previous iteration when requests joined
  // others that were already running (joining an idle instance delays no running request).
  const double compute = t.attention_us + t.moe_compute_us + t.other_us + t.draft_us;
  size_t running = 0;
  for (const auto& st : states) running += st.contexts.size();
  double& prev = prev_compute_[static_cast<size_t>(di)];
  if (m.admitted > 0 && running > static_cast<size_t>(m.admitted))
    m.batch_jump_us = std::max(0.0, compute - prev);
  prev = compute;
}

int DecodeTail::accepted_tokens(const AcceptanceModel& a, Rng& rng, double& carry) const {
  if (d_.scenario.tail.acceptance_variance) return a.sample_tokens(rng);
  carry += a.mean_tokens();
  const int n = static_cast<int>(std::floor(carry));
  carry -= n;
  return n;
}

Json DecodeTail::packet_stats() const {
  return oracle_ ? oracle_->stats() : Json(nullptr);
}

}  // namespace pdsim

// Tail mechanism `fabric_background` (tail.fabric_background, at a fidelity with an all-to-all
// oracle, i.e. packet): the decode all-to-all phases' extra latency under the KV transfers and PP
// activation sends in flight, drawn from the packet engine (packet_phase_oracle.hpp).
#include <algorithm>
#include <map>

#include "sim/core/config_sections.hpp"
#include "sim/fabric/transfers.hpp"
#include "sim/serve/cost/cluster_fabric.hpp"
#include "sim/serve/cost/packet_phase_oracle.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {

// Flows seen by decode instance `di` (KV into its nodes, PP sends) with their rates: KV flows
// split their source's KV-engine cap and their destination's NICs; a PP send has its NICs.
std::vector<BackgroundFlow> background(const Deployment& d, int di,
                                       const std::vector<InFlight>& flows) {
  const double node_Bps =
      d.instance.nics_per_node * nic_effective_rate(d.fabric, d.instance.nic_gbps);
  const double kv_Bps =
      kv_transfer_rate(d.fabric, d.kv_block_bytes, d.kv_nics, d.instance.nic_gbps);
  std::map<int, int> kv_from, kv_into;
  for (const auto& f : flows)
    if (f.kv) {
      ++kv_from[f.src];
      ++kv_into[f.dst];
    }
  const int first = decode_node_index(d, di, 0),
            last = first + d.scenario.decode.nodes_per_instance;
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

class FabricBackground final : public TailMechanism {
 public:
  FabricBackground(const Deployment& d, PacketPhaseOracle& oracle)
      : d_(d), oracle_(oracle), id_(mechanism_id("fabric_background")) {}

  void apply(const IterationContext& c, ForwardTerms& t, MechanismTerms& m, Rng& rng) override {
    const std::vector<InFlight> flows = c.flows.in_flight();
    const int q = d_.passes.query_tokens;
    std::vector<int> verify, draft;
    for (const auto& st : c.ranks) {
      verify.push_back(static_cast<int>(st.contexts.size()) * q);
      draft.push_back(static_cast<int>(st.contexts.size()));
    }
    const A2AExcess ex = oracle_.iteration_excess(
        verify, draft, d_.model.num_moe_layers(), d_.passes.draft_steps,
        decode_node_index(d_, c.instance, 0), background(d_, c.instance, flows), t.total_us(), rng);
    t.dispatch_us += ex.dispatch_us;
    t.combine_us += ex.combine_us;
    m[id_] = ex.dispatch_us + ex.combine_us;
    m.loaded_phases = ex.loaded_phases;
  }

 private:
  const Deployment& d_;
  PacketPhaseOracle& oracle_;
  MechanismId id_;
};

}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(
    pdsim::TailMechanismRegistry, "fabric_background",
    "tail.fabric_background (packet fidelity): KV / PP flows in flight slow the decode all-to-all",
    [](const pdsim::MechanismEnv& e) -> std::unique_ptr<pdsim::TailMechanism> {
      if (!e.d.scenario.tail.get<bool>("fabric_background") || e.oracle == nullptr) return nullptr;
      return std::make_unique<pdsim::FabricBackground>(e.d, *e.oracle);
    })
PDSIM_CONFIG_LEAF("tail", "fabric_background", bool, true,
                  pdsim::FieldSpec{.help = "packet fidelity: KV / PP flows in flight slow the "
                                           "all-to-all; off: packet equals analytic"})

#pragma once
// The decode iteration's tail mechanisms that live outside the cost model: the packet-fidelity
// all-to-all excess under the flows in flight (packet_phase_oracle.hpp), scheduler hiccups and
// batch jumps (tail_config.hpp). The serving simulation hands it each iteration's forward terms
// and the flows in flight; it adds to the terms and fills the mechanism record.
#include <memory>
#include <vector>

#include "sim/serve/acceptance.hpp"
#include "sim/serve/decode_cost.hpp"
#include "sim/serve/packet_phase_oracle.hpp"

namespace pdsim {

struct InFlight {
  int src = 0, dst = 0;  // cluster nodes
  bool kv = true;        // KV transfer, else PP activation send
  double remaining_bytes = 0;
};

class DecodeTail {
 public:
  DecodeTail(const Deployment& d, uint64_t seed);
  // Flows seen by decode instance `di` (KV into its nodes, PP sends) with their rates: KV flows
  // split their source's KV-engine cap and their destination's NICs; a PP send has its NICs.
  std::vector<BackgroundFlow> background(int di, const std::vector<InFlight>& flows) const;
  // Whether apply() reads `flows` (packet fidelity with tail.fabric_background): when not, the
  // caller need not gather them each iteration.
  bool reads_flows() const;
  void apply(int di, const std::vector<RankState>& states, const std::vector<InFlight>& flows,
             ForwardTerms& t, MechanismTerms& m, Rng& rng);
  // Tokens in one request's chunk: drawn (tail.acceptance_variance), else the expected count
  // with fractions carried in `carry` to the request's next chunk.
  int accepted_tokens(const AcceptanceModel& a, Rng& rng, double& carry) const;
  Json packet_stats() const;

 private:
  const Deployment& d_;
  std::unique_ptr<PacketPhaseOracle> oracle_;
  std::vector<double> prev_compute_;  // per decode instance
};

}  // namespace pdsim

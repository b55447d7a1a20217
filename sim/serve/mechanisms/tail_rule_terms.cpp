// The tail mechanisms that are terms of the decode iteration rule (decode_iteration_timer.cpp
// computes them while composing the passes); registered here so that they have a slot in
// MechanismTerms and a line in `pdsim list`; their switches are declared here too.
#include "sim/core/config_sections.hpp"
#include "sim/serve/mechanisms/tail_mechanism.hpp"

namespace pdsim {
namespace {
std::unique_ptr<TailMechanism> rule_term(const MechanismEnv&) {
  return nullptr;
}
}  // namespace
}  // namespace pdsim

PDSIM_REGISTER(
    pdsim::TailMechanismRegistry, "dp_imbalance",
    "rule term (tail.dp_imbalance): the slowest DP-attention rank sets each layer's pace",
    pdsim::rule_term)
PDSIM_REGISTER(pdsim::TailMechanismRegistry, "expert_imbalance",
               "rule term (tail.dp_imbalance): the slowest expert rank sets each MoE layer's pace",
               pdsim::rule_term)
PDSIM_REGISTER(
    pdsim::TailMechanismRegistry, "cuda_graph_miss",
    "rule term (tail.cuda_graph_miss): eager launch when a batch exceeds the captured sizes",
    pdsim::rule_term)
PDSIM_CONFIG_LEAF("tail", "dp_imbalance", bool, true,
                  pdsim::FieldSpec{.help = "every MoE layer waits for the slowest DP rank "
                                           "(attention, dense layers, draft) and the slowest EP "
                                           "rank (expert GEMMs); off: the mean rank"})
PDSIM_CONFIG_LEAF("tail", "cuda_graph_miss", bool, true,
                  pdsim::FieldSpec{.help = "a batch above the capture list launches eagerly "
                                           "(launch overhead from the GPU profile); off: graph "
                                           "replay always"})

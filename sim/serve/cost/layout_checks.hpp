#pragma once
// The layout rules a deployment is checked against before anything is costed: what SGLang itself
// refuses (named as SGLang's rule, InputError on the field) and what pdsim does not model
// (InfeasibleError), per role. build_deployment calls both after resolving the layouts.

#include <optional>

#include "models/compute_model.hpp"
#include "models/hardware.hpp"
#include "models/sglang_parallel.hpp"
#include "sim/fabric/normal_rdma_a2a.hpp"
#include "sim/scenario/scenario.hpp"

namespace pdsim {

void check_prefill(const Scenario& s, const ModelConfig& m, const InstanceType& inst,
                   const SglangParallel& l, const std::optional<NormalRdmaRates>& rdma);
void check_decode(const Scenario& s, const ModelConfig& m, const InstanceType& inst,
                  const SglangParallel& l);

}  // namespace pdsim

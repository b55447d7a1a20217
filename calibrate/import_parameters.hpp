#pragma once
// Run facts an imported measurement lacks (DeepEP/UCCL-EP/pplx output names neither the backend,
// the EP size nor the hardware), added at import time instead of by editing the file:
//   --instance-type NAME  gpus_per_node, nics_per_gpu (= nics_per_node / gpus_per_node) and
//                         nic_gbps from models/catalog/instance/NAME.json;
//   --param KEY=VALUE     any parameter (VALUE read as JSON, else as a string), e.g.
//   backend=cpu-proxy,
//                         ep=16, num_experts=256.
// Values already in the document's "parameters" are kept (the tool's own output wins over the
// catalog); --param overrides both. What was added, and from where, is recorded in
// provenance.added_parameters.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

void add_import_parameters(Json& doc, const std::string& instance_type,
                           const std::vector<std::string>& params);

}  // namespace pdsim

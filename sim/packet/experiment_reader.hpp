#pragma once
// Experiment file of `pdsim fabric` (schema "pdsim.fabric_experiment/1"), the file edge of the
// typed ExperimentConfig (experiment.hpp): every field is read through JsonNode, so a bad file
// fails with the file, the field path and what was expected; absent fields get the defaults
// experiment.hpp documents. A workload's own fields stay in its JSON node, which its kind reads
// when the workload is made (WorkloadConfig::settings).
#include "sim/core/json_reader.hpp"
#include "sim/packet/experiment.hpp"

namespace pdsim::packet {

ExperimentConfig parse_experiment(const JsonNode& root);

}  // namespace pdsim::packet

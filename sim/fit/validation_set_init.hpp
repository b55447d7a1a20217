#pragma once
// `pdsim calibrate serving --init SET --scenario S RECORD[:LINE]...`: a validation set
// (validation_set.hpp) from bench_serving records and the scenario they were measured on, so no
// one writes the set's JSON by hand. One run per record, named after the record file's stem (plus
// "-LINE" for one line of an appended file); the scenario and the records as paths relative to
// SET's folder, so the set runs from anywhere; each run's workload from its record (the reader's
// default, "workload_from_record"); per-run overrides from "NAME:dotted.path=value"; the set's
// default fit list from --fit or else the recommended one (recommended_fit.hpp).
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

struct SetInit {
  std::string file;                   // the set to write
  std::string scenario;               // a file or a name `pdsim list` prints
  std::vector<std::string> records;   // FILE[:LINE]
  std::vector<std::string> run_sets;  // "RUN:dotted.path=value"
  std::vector<std::string> fit;       // empty: recommended_serving_fit()
};

// The set's document, already checked as the reader and the scenario reader check it (records
// exist and are bench_serving output, run names unique, every override applies): InputError
// naming the argument otherwise (--run-set with a run name the set does not have lists them).
Json init_validation_set(const SetInit& init);

}  // namespace pdsim

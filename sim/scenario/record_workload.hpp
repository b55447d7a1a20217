#pragma once
// The workload a bench_serving record was run with, as `--set` assignments on the scenario's
// workload fields (issue 28: `validate` warned that the workload differed from the record but
// would not take it from there). Derived from the declarations: each workload field whose SGLang
// name is a bench_serving flag takes the record key of that flag (--random-input-len →
// random_input_len), read in the field's type and range. One rule by name: the record carries no
// num_prompts, so num_prompts is the record's `completed` (bench_serving writes no failed count;
// a run with failed requests had more prompts than this). A null value (max_concurrency not set)
// is null for a field that allows it and is left to the scenario otherwise.
#include <string>
#include <vector>

#include "sim/core/json_reader.hpp"

namespace pdsim {

// "workload.input_len=60000", ... in declaration order; a key the record lacks is left to the
// scenario. InputError at the record's key (`record` names the file and line) for a value outside
// the field's type or range (a dataset pdsim does not generate, a negative length).
std::vector<std::string> workload_from_record(const JsonNode& record);

// The record key a workload field's bench_serving flag writes ("--random-input-len" →
// "random_input_len"; "--num-prompts" → "completed", the rule above).
std::string record_key_of_flag(const std::string& flag);

}  // namespace pdsim

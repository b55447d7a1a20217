#pragma once
// The files of one run directory, each written atomically:
//   summary.json           bench_summary (bench_serving keys + "pdsim")
//   requests.csv, itl.csv  per-request records and per-chunk ITL samples
//   scenario.resolved.json {"scenario": resolved scenario, "profiles": profiles used, "seed"}
#include <functional>
#include <string>

#include "sim/core/json_reader.hpp"
#include "sim/serve/entities/results.hpp"

namespace pdsim {

// Returns the summary it wrote. `amend` (optional) adds to the summary before it is written (the
// envelope block, which needs the summary's metrics).
Json write_run_outputs(const SimResults& results, const std::string& out_dir,
                       const std::function<void(Json&)>& amend = {});

}  // namespace pdsim
